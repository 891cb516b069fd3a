import { useQuery } from '@tanstack/react-query';
import { CREATABLE_PLATFORM_ROLES, isRoleBelow, TENANT_STAFF_ROLES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { customRolesQuery } from '../roles/roles-api';
import { usePermissions } from '../shell/permissions';
import { useSession } from '../shell/session-context';

/** Custom roles offered in the role select; a tenant with more finds them by typing. */
const CUSTOM_ROLE_LIMIT = 100;

/**
 * The roles a staff form offers, grouped: the default staff roles (and, for ROOT and super admins,
 * the platform roles they may create), then the tenant's custom roles when the caller may read them.
 * Tenant roles are those ranking strictly below the caller's own (the server refuses the others,
 * contracts roles.ts), plus `keep`, the current role of an account being edited. `customRoles` stays
 * complete: it resolves a custom role's base role.
 */
export function useRoleOptions({
  withPlatformRoles,
  keep = null,
}: {
  withPlatformRoles: boolean;
  keep?: string | null;
}) {
  const { t } = useTranslation();
  const { t: to } = useTranslation('org');
  const { can } = usePermissions();
  const session = useSession();
  const custom = useQuery({ ...customRolesQuery(0, CUSTOM_ROLE_LIMIT, ''), enabled: can('permission.view') });
  const isSuperRole = session.user.role === 'ROOT' || session.user.role === 'SUPER_ADMIN';
  const isOffered = (value: string, ranked: Parameters<typeof isRoleBelow>[0]) =>
    value === keep || isRoleBelow(ranked, session.user.role);
  const defaults = [
    ...(withPlatformRoles && isSuperRole ? CREATABLE_PLATFORM_ROLES : []),
    ...TENANT_STAFF_ROLES.filter((code) => isOffered(code, code)),
  ].map((code) => ({ value: code, label: t(`roles.${code}`) }));
  const customRoles = custom.data?.items ?? [];
  const offeredCustomRoles = customRoles.filter((role) => isOffered(role.id, role));
  const groups: { group: string; items: { value: string; label: string }[] }[] = [
    { group: to('staff.form.defaultRoles'), items: defaults },
  ];
  if (offeredCustomRoles.length > 0)
    groups.push({
      group: to('staff.form.customRoles'),
      items: offeredCustomRoles.map((role) => ({ value: role.id, label: role.name })),
    });
  return { groups, customRoles };
}
