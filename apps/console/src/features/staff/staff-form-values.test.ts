import { describe, expect, it } from 'vitest';
import { staffCreateSchema } from '@rpm/contracts';
import { baseRoleOf, EMPTY_STAFF, roleIssues, staffPayload } from './staff-form-values';

const CENTER = '00000000-0000-4000-8000-000000000031';
const SCOPE = '00000000-0000-4000-8000-000000000032';
const DOCTOR = '00000000-0000-4000-8000-000000000033';
const CUSTOM = '00000000-0000-4000-8000-000000000034';

const person = { ...EMPTY_STAFF, firstName: 'Lan', lastName: 'Tran', email: 'lan@example.com' };

describe('staff form rules', () => {
  it('asks for a role first', () => {
    expect(Object.keys(roleIssues(person, undefined))).toEqual(['role']);
  });

  it('asks for what each role needs: a center, a scope, doctors, tenants', () => {
    expect(Object.keys(roleIssues({ ...person, role: 'DOCTOR' }, 'DOCTOR'))).toEqual(['centerId']);
    expect(Object.keys(roleIssues({ ...person, role: 'SCOPE_ADMIN' }, 'SCOPE_ADMIN'))).toEqual(['scopeId']);
    expect(
      Object.keys(roleIssues({ ...person, role: 'DOCTOR_ASSISTANT', centerId: CENTER }, 'DOCTOR_ASSISTANT')),
    ).toEqual(['doctorIds']);
    expect(Object.keys(roleIssues({ ...person, role: 'SYSTEM_ADMIN' }, 'SYSTEM_ADMIN'))).toEqual([
      'tenantIds',
    ]);
    expect(roleIssues({ ...person, role: 'OPERATOR' }, 'OPERATOR')).toEqual({});
  });

  it('applies a custom role’s base role', () => {
    expect(baseRoleOf(CUSTOM, [{ id: CUSTOM, baseRole: 'DOCTOR' }])).toBe('DOCTOR');
    expect(baseRoleOf('COACH', [])).toBe('COACH');
  });

  it('sends only what the role uses, and blanks as "not given"', () => {
    const values = {
      ...person,
      phone: ' ',
      role: 'ADMIN',
      centerId: CENTER,
      scopeId: SCOPE,
      doctorIds: [DOCTOR],
    };
    const payload = staffPayload(values, 'ADMIN');
    expect(payload).toMatchObject({
      centerId: null,
      scopeId: null,
      doctorIds: [],
      phone: null,
      password: undefined,
    });
    expect(staffCreateSchema.safeParse(payload).success).toBe(true);
    const assistant = staffPayload({ ...values, role: 'DOCTOR_ASSISTANT' }, 'DOCTOR_ASSISTANT');
    expect(assistant).toMatchObject({ centerId: CENTER, scopeId: null, doctorIds: [DOCTOR] });
  });
});
