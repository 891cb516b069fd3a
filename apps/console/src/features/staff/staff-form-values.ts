import {
  ROLE_CODES,
  ROLE_PLACEMENT,
  type RoleCode,
  type RolePlacement,
  type StaffDetail,
} from '@rpm/contracts';
import type { FieldMessage, FieldMessages } from '../../lib/form-errors';

/** What the staff form's inputs hold. `role` is a default role code or a custom role's id. */
export interface StaffValues {
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  phone: string;
  role: string | null;
  centerId: string | null;
  scopeId: string | null;
  doctorIds: string[];
  tenantIds: string[];
  password: string;
  confirmation: string;
}

export const EMPTY_STAFF: StaffValues = {
  firstName: '',
  middleName: '',
  lastName: '',
  email: '',
  phone: '',
  role: null,
  centerId: null,
  scopeId: null,
  doctorIds: [],
  tenantIds: [],
  password: '',
  confirmation: '',
};

export function staffValuesOf(staff: StaffDetail): StaffValues {
  return {
    ...EMPTY_STAFF,
    firstName: staff.firstName,
    middleName: staff.middleName,
    lastName: staff.lastName,
    email: staff.email ?? '',
    phone: staff.phone ?? '',
    role: staff.customRole?.id ?? staff.role,
    centerId: staff.center?.id ?? null,
    scopeId: staff.scope?.id ?? null,
    doctorIds: staff.doctors.map((doctor) => doctor.id),
    tenantIds: staff.tenants.map((tenant) => tenant.id),
  };
}

export const asRoleCode = (value: string | null): RoleCode | undefined =>
  ROLE_CODES.find((code) => code === value);

/** The default role whose rules apply: the role itself, or the base role of a custom role. */
export function baseRoleOf(
  role: string | null,
  customRoles: readonly { id: string; baseRole: RoleCode }[],
): RoleCode | undefined {
  return asRoleCode(role) ?? customRoles.find((custom) => custom.id === role)?.baseRole;
}

export const placementOf = (base: RoleCode | undefined): RolePlacement | undefined =>
  base === undefined ? undefined : ROLE_PLACEMENT[base];

/**
 * The rules that depend on the role (spec §5 and the server's placement rules): at least one role,
 * a center or scope where the role needs one, at least one doctor for an assistant, at least one
 * tenant for a system admin. The contract schema leaves these to the server; checked here first.
 */
export function roleIssues(values: StaffValues, base: RoleCode | undefined): FieldMessages {
  const issues: Record<string, FieldMessage> = {};
  if (values.role === null || base === undefined) {
    issues.role = { key: 'errors:role.required' };
    return issues;
  }
  const placement = ROLE_PLACEMENT[base];
  if (placement === 'center' && values.centerId === null)
    issues.centerId = { key: 'errors:staff.centerRequired' };
  if (placement === 'scope' && values.scopeId === null)
    issues.scopeId = { key: 'errors:staff.scopeRequired' };
  if (base === 'DOCTOR_ASSISTANT' && values.doctorIds.length === 0)
    issues.doctorIds = { key: 'errors:staff.assistantNeedsDoctor' };
  if (base === 'SYSTEM_ADMIN' && values.tenantIds.length === 0)
    issues.tenantIds = { key: 'errors:staff.tenantRequired' };
  return issues;
}

/** The body of create and edit: only what the role uses is sent (the server refuses the rest). */
export function staffPayload(values: StaffValues, base: RoleCode | undefined) {
  const placement = placementOf(base);
  const usesCenter = placement === 'center' || placement === 'tenantOrCenter';
  return {
    firstName: values.firstName,
    middleName: values.middleName,
    lastName: values.lastName,
    email: values.email.trim() === '' ? null : values.email,
    phone: values.phone.trim() === '' ? null : values.phone,
    role: values.role,
    centerId: usesCenter ? values.centerId : null,
    scopeId: placement === 'scope' ? values.scopeId : null,
    doctorIds: base === 'DOCTOR_ASSISTANT' ? values.doctorIds : [],
    tenantIds: base === 'SYSTEM_ADMIN' ? values.tenantIds : [],
    password: values.password === '' ? undefined : values.password,
  };
}
