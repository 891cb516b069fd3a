import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS } from '@rpm/contracts';
import { areaPath, NAV_ITEMS, visibleNavItems, type NavItem } from './navigation';

const items: NavItem[] = [
  { path: '', labelKey: 'nav.home', permission: null },
  { path: 'account', labelKey: 'nav.account', permission: 'account.view' },
  { path: 'privacy', labelKey: 'nav.privacy', permission: 'dashboard.view' },
];

describe('visibleNavItems', () => {
  it('keeps open entries and those whose permission the user holds, in order', () => {
    const visible = visibleNavItems(items, new Set(['dashboard.view']));
    expect(visible.map((item) => item.path)).toEqual(['', 'privacy']);
  });

  it('shows only open entries to a user without permissions', () => {
    expect(visibleNavItems(items, new Set()).map((item) => item.path)).toEqual(['']);
  });

  it('shows role management only to holders of permission.view', () => {
    const visible = visibleNavItems(NAV_ITEMS, new Set(['account.view', 'permission.view']));
    expect(visible.map((item) => item.labelKey)).toEqual([
      'nav.home',
      'nav.account',
      'nav.roles',
      'nav.privacy',
    ]);
    expect(
      visibleNavItems(NAV_ITEMS, new Set(DEFAULT_ROLE_PERMISSIONS.ADMIN)).map((item) => item.path),
    ).toContain('roles');
  });

  it('gives a default doctor patients, doctors, requests and devices but no staff or imports', () => {
    const visible = visibleNavItems(NAV_ITEMS, new Set(DEFAULT_ROLE_PERMISSIONS.DOCTOR));
    expect(visible.map((item) => item.path)).toEqual([
      '',
      'patients',
      'doctors',
      'requests',
      'devices',
      'appointments',
      'check-in',
      'my-schedule',
      'account',
      'privacy',
    ]);
  });
});

describe('areaPath', () => {
  it('builds absolute paths under the role area', () => {
    expect(areaPath('doctor')).toBe('/doctor');
    expect(areaPath('doctor-assistant', 'account')).toBe('/doctor-assistant/account');
    expect(areaPath('sadmin', '/privacy')).toBe('/sadmin/privacy');
  });
});
