import { useQuery } from '@tanstack/react-query';
import { CREATABLE_PLATFORM_ROLES, TENANT_STAFF_ROLES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { customRolesQuery } from '../roles/roles-api';
import { usePermissions } from '../shell/permissions';
import { useSession } from '../shell/session-context';

/** Custom roles offered in the role select; a tenant with more finds them by typing. */
const CUSTOM_ROLE_LIMIT = 100;

/**
 * The roles a staff form offers, grouped: the default staff roles (and, for ROOT and super admins,
 * the platform roles they may create), then the tenant's custom roles when the caller may read them.
 */
export function useRoleOptions({ withPlatformRoles }: { withPlatformRoles: boolean }) {
  const { t } = useTranslation();
  const { t: to } = useTranslation('org');
  const { can } = usePermissions();
  const session = useSession();
  const custom = useQuery({ ...customRolesQuery(0, CUSTOM_ROLE_LIMIT, ''), enabled: can('permission.view') });
  const isSuperRole = session.user.role === 'ROOT' || session.user.role === 'SUPER_ADMIN';
  const defaults = [
    ...(withPlatformRoles && isSuperRole ? CREATABLE_PLATFORM_ROLES : []),
    ...TENANT_STAFF_ROLES,
  ].map((code) => ({ value: code, label: t(`roles.${code}`) }));
  const customRoles = custom.data?.items ?? [];
  const groups: { group: string; items: { value: string; label: string }[] }[] = [
    { group: to('staff.form.defaultRoles'), items: defaults },
  ];
  if (customRoles.length > 0)
    groups.push({
      group: to('staff.form.customRoles'),
      items: customRoles.map((role) => ({ value: role.id, label: role.name })),
    });
  return { groups, customRoles };
}
