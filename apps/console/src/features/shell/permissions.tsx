import { useMemo, type ReactNode } from 'react';
import type { Permission } from '@rpm/contracts';
import { useOptionalSession } from './session-context';
import { ForbiddenPage } from './forbidden-page';

export interface PermissionCheck {
  permissions: ReadonlySet<string>;
  can: (permission: Permission) => boolean;
}

const NO_PERMISSIONS: ReadonlySet<string> = new Set();

/** The signed-in user's permissions (empty on public pages), loaded once at startup. */
export function usePermissions(): PermissionCheck {
  const session = useOptionalSession();
  const permissions = session?.permissions ?? NO_PERMISSIONS;
  return useMemo(
    () => ({ permissions, can: (permission: Permission) => permissions.has(permission) }),
    [permissions],
  );
}

/** Renders its children only for users holding the permission; for buttons and menu entries. */
export function Can({
  permission,
  children,
  fallback = null,
}: {
  permission: Permission;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const { can } = usePermissions();
  return <>{can(permission) ? children : fallback}</>;
}

/**
 * Route guard: the page for users holding the permission, the "no permission" page for others.
 * Hiding a menu entry is not enough, because an address can be typed or bookmarked.
 */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { can } = usePermissions();
  return <>{can(permission) ? children : <ForbiddenPage />}</>;
}
