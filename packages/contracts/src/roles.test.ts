import { describe, expect, it } from 'vitest';
import {
  highestRole,
  isRoleAbove,
  isRoleBelow,
  maySetPasswordOf,
  ROLE_CODES,
  ROLE_RANK,
  roleRank,
  rolesBelow,
  rolesNotAbove,
  type RoleCode,
} from './roles.js';

/** The hierarchy as the product describes it, top first; roles in one group are peers. */
const TIERS: readonly (readonly RoleCode[])[] = [
  ['ROOT'],
  ['SUPER_ADMIN'],
  ['SYSTEM_ADMIN'],
  ['ADMIN'],
  ['MAIN_ADMIN'],
  ['SUPPORT_ADMIN', 'SCOPE_ADMIN', 'MHSC_ADMIN'],
  ['OPERATOR', 'CSKH', 'DOCTOR', 'DOCTOR_ASSISTANT', 'COACH'],
  ['PATIENT'],
];
const tierOf = (role: RoleCode) => TIERS.findIndex((tier) => tier.includes(role));

describe('role hierarchy', () => {
  it('ranks every role, in the tiers of the product', () => {
    expect(TIERS.flat().sort()).toEqual([...ROLE_CODES].sort());
    expect(Object.keys(ROLE_RANK).sort()).toEqual([...ROLE_CODES].sort());
    for (const caller of ROLE_CODES) {
      for (const target of ROLE_CODES) {
        const label = `${target} vs ${caller}`;
        expect(isRoleBelow(target, caller), label).toBe(tierOf(target) > tierOf(caller));
        expect(isRoleAbove(target, caller), label).toBe(tierOf(target) < tierOf(caller));
        expect(roleRank(target) === roleRank(caller), label).toBe(tierOf(target) === tierOf(caller));
      }
    }
  });

  it('is strict: no role is below itself or a peer', () => {
    for (const role of ROLE_CODES) expect(isRoleBelow(role, role)).toBe(false);
    expect(isRoleBelow('MHSC_ADMIN', 'SUPPORT_ADMIN')).toBe(false);
    expect(isRoleBelow('DOCTOR', 'COACH')).toBe(false);
    expect(isRoleBelow('SUPPORT_ADMIN', 'MAIN_ADMIN')).toBe(true);
    expect(isRoleBelow('MAIN_ADMIN', 'ADMIN')).toBe(true);
    expect(isRoleBelow('ADMIN', 'MAIN_ADMIN')).toBe(false);
  });

  it('ranks a custom role as its base role', () => {
    const custom = { baseRole: 'ADMIN' as const };
    expect(roleRank(custom)).toBe(roleRank('ADMIN'));
    expect(isRoleBelow(custom, 'MAIN_ADMIN')).toBe(false);
    expect(isRoleAbove(custom, 'MAIN_ADMIN')).toBe(true);
    expect(isRoleBelow({ baseRole: 'DOCTOR' }, { baseRole: 'MHSC_ADMIN' })).toBe(true);
  });

  it('lists the roles below a caller, and those a caller may base a role on', () => {
    expect(rolesBelow('MAIN_ADMIN')).toEqual([
      'SUPPORT_ADMIN',
      'SCOPE_ADMIN',
      'MHSC_ADMIN',
      'OPERATOR',
      'CSKH',
      'DOCTOR',
      'DOCTOR_ASSISTANT',
      'COACH',
      'PATIENT',
    ]);
    expect(rolesBelow('PATIENT')).toEqual([]);
    expect(rolesNotAbove('MAIN_ADMIN')).toEqual(['MAIN_ADMIN', ...rolesBelow('MAIN_ADMIN')]);
    expect(rolesNotAbove('ROOT')).toEqual([...ROLE_CODES]);
  });

  it('takes the highest of several roles', () => {
    expect(highestRole('DOCTOR')).toBe('DOCTOR');
    expect(highestRole('DOCTOR', 'MAIN_ADMIN', 'MHSC_ADMIN')).toBe('MAIN_ADMIN');
    expect(highestRole('ADMIN', 'COACH')).toBe('ADMIN');
  });

  it('lets only a super admin or root set a super admin’s password, and otherwise follows the hierarchy', () => {
    for (const caller of ROLE_CODES) {
      for (const target of ROLE_CODES) {
        const expected =
          target === 'SUPER_ADMIN'
            ? caller === 'SUPER_ADMIN' || caller === 'ROOT'
            : isRoleBelow(target, caller);
        expect(maySetPasswordOf(target, caller), `${caller} sets ${target}`).toBe(expected);
      }
    }
  });
});
