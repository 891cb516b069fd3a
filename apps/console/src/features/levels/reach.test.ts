import { describe, expect, it } from 'vitest';
import type { LevelOptions, StaffLevel } from '@rpm/contracts';
import { centersUnder, hasLevelChoices, scopePath, scopesInTreeOrder, seesWholeTenant } from './reach';

const TENANT = '00000000-0000-4000-8000-000000000001';
const VIETNAM = '00000000-0000-4000-8000-0000000000a1';
const SOUTH = '00000000-0000-4000-8000-0000000000a2';
const NORTH = '00000000-0000-4000-8000-0000000000a3';
const DISTRICT = '00000000-0000-4000-8000-0000000000a4';
const SAIGON = '00000000-0000-4000-8000-0000000000c1';
const HANOI = '00000000-0000-4000-8000-0000000000c2';
const EXTRA = '00000000-0000-4000-8000-0000000000e1';

const level = (
  role: StaffLevel['role'],
  place: Partial<Pick<StaffLevel, 'id' | 'scope' | 'center'>> = {},
): StaffLevel => ({
  id: null,
  role,
  customRole: null,
  scope: null,
  center: null,
  ...place,
});

function options(levels: StaffLevel[], current: Partial<LevelOptions['current']> = {}): LevelOptions {
  return {
    current: { levelId: null, tenantId: TENANT, scopeId: null, centerId: null, ...current },
    levels,
    tenants: [{ id: TENANT, code: 'demo', name: 'Demo' }],
    scopes: [
      { id: VIETNAM, name: 'Vietnam', level: 1, parentId: null },
      { id: NORTH, name: 'Ha Noi', level: 2, parentId: VIETNAM },
      { id: SOUTH, name: 'Ho Chi Minh City', level: 2, parentId: VIETNAM },
      { id: DISTRICT, name: 'District 1', level: 3, parentId: SOUTH },
    ],
    centers: [
      { id: SAIGON, name: 'Saigon Heart Center', scopeId: DISTRICT },
      { id: HANOI, name: 'Hoan Kiem Care Center', scopeId: NORTH },
    ],
  };
}

describe('seesWholeTenant', () => {
  it('is true for platform staff and tenant admins until they narrow', () => {
    expect(seesWholeTenant(options([level('SUPER_ADMIN')]))).toBe(true);
    expect(seesWholeTenant(options([level('ADMIN')]))).toBe(true);
    expect(seesWholeTenant(options([level('SUPER_ADMIN')], { centerId: SAIGON }))).toBe(false);
    expect(seesWholeTenant(options([level('ADMIN')], { scopeId: SOUTH }))).toBe(false);
  });

  it('is false for center and scope levels, true for an operator placed nowhere', () => {
    const center = { id: SAIGON, name: 'Saigon Heart Center' };
    expect(seesWholeTenant(options([level('MHSC_ADMIN', { center })], { centerId: SAIGON }))).toBe(false);
    expect(
      seesWholeTenant(
        options([level('SCOPE_ADMIN', { scope: { id: SOUTH, name: 'South' } })], { scopeId: SOUTH }),
      ),
    ).toBe(false);
    expect(seesWholeTenant(options([level('OPERATOR')]))).toBe(true);
    expect(seesWholeTenant(options([level('OPERATOR', { center })], { centerId: SAIGON }))).toBe(false);
  });

  it('follows the active extra level, not the main one', () => {
    const levels = [level('ADMIN'), level('DOCTOR', { id: EXTRA, center: { id: SAIGON, name: 'Saigon' } })];
    expect(seesWholeTenant(options(levels, { levelId: EXTRA, centerId: SAIGON }))).toBe(false);
    expect(seesWholeTenant(options(levels))).toBe(true);
  });
});

describe('hasLevelChoices', () => {
  it('hides the switcher when a center level has nothing else to pick', () => {
    const only = options([level('DOCTOR', { center: { id: SAIGON, name: 'Saigon' } })]);
    expect(hasLevelChoices({ ...only, scopes: [], centers: only.centers.slice(0, 1) })).toBe(false);
    expect(hasLevelChoices(only)).toBe(true);
  });
});

describe('scope helpers', () => {
  it('finds the centers below a scope, through every level', () => {
    const all = options([level('ADMIN')]);
    expect(centersUnder(all, VIETNAM).map((center) => center.id)).toEqual([SAIGON, HANOI]);
    expect(centersUnder(all, SOUTH).map((center) => center.id)).toEqual([SAIGON]);
    expect(centersUnder(all, null)).toHaveLength(2);
  });

  it('names a scope by its path and orders scopes like the tree', () => {
    const { scopes } = options([level('ADMIN')]);
    expect(scopePath(scopes, DISTRICT)).toBe('Vietnam › Ho Chi Minh City › District 1');
    expect(scopesInTreeOrder(scopes).map((scope) => scope.name)).toEqual([
      'Vietnam',
      'Ha Noi',
      'Ho Chi Minh City',
      'District 1',
    ]);
  });
});
