import { describe, expect, it } from 'vitest';
import { DEFAULT_ROLE_PERMISSIONS, PERMISSION_GROUPS, PERMISSIONS } from './permissions.js';
import { areaOfRole, PLATFORM_ROLES, ROLE_CODES, TENANT_ROLES } from './roles.js';

describe('permission catalogue', () => {
  it('names every permission group.action with the spec’s twelve groups', () => {
    expect(Object.keys(PERMISSION_GROUPS).sort()).toEqual(
      ['account', 'appointment', 'dashboard', 'device', 'health', 'notification', 'permission', 'relative', 'staff', 'tenant', 'transaction', 'user'],
    );
    for (const permission of PERMISSIONS) expect(permission).toMatch(/^[a-z]+\.[a-z]+$/);
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });

  it('gives every role a default list drawn from the catalogue only', () => {
    for (const role of ROLE_CODES) {
      const granted = DEFAULT_ROLE_PERMISSIONS[role];
      expect(granted.length, role).toBeGreaterThan(0);
      for (const permission of granted) expect(PERMISSIONS, `${role}: ${permission}`).toContain(permission);
    }
  });

  it('keeps tenant management to platform staff', () => {
    for (const role of TENANT_ROLES) expect(DEFAULT_ROLE_PERMISSIONS[role]).not.toContain('tenant.create');
    expect(DEFAULT_ROLE_PERMISSIONS.SUPER_ADMIN).toContain('tenant.create');
  });

  it('maps every role to one of the spec’s console areas', () => {
    expect(PLATFORM_ROLES).toEqual(['ROOT', 'SUPER_ADMIN', 'SYSTEM_ADMIN']);
    const areas = new Set(ROLE_CODES.map(areaOfRole));
    for (const area of areas) expect(['sadmin', 'smadmin', 'doctor', 'operator', 'doctor-assistant', 'admin', 'root', 'cskh', 'coach', 'user']).toContain(area);
  });
});
