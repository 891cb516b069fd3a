import type { Permission, RoleArea } from '@rpm/contracts';
import { HomeIcon, KeyIcon, ShieldIcon, UserIcon, type IconComponent } from './icons';

/**
 * One entry of the side navigation. `path` is relative to the user's area (`''` is the area home),
 * so the same entry serves every role that holds the permission. A new feature adds one entry.
 */
export interface NavItem {
  path: string;
  labelKey: NavLabelKey;
  /** Permission needed to see the entry; null for pages every signed-in user may open. */
  permission: Permission | null;
  icon?: IconComponent;
}

export type NavLabelKey = 'nav.home' | 'nav.account' | 'nav.roles' | 'nav.privacy';

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '', labelKey: 'nav.home', permission: null, icon: HomeIcon },
  { path: 'account', labelKey: 'nav.account', permission: 'account.view', icon: UserIcon },
  { path: 'roles', labelKey: 'nav.roles', permission: 'permission.view', icon: KeyIcon },
  { path: 'privacy', labelKey: 'nav.privacy', permission: null, icon: ShieldIcon },
];

/** The entries a user may see, in their declared order. */
export function visibleNavItems(items: readonly NavItem[], permissions: ReadonlySet<string>): NavItem[] {
  return items.filter((item) => item.permission === null || permissions.has(item.permission));
}

/** Absolute path of a page inside an area: `/doctor`, `/doctor/account`. */
export function areaPath(area: RoleArea, path = ''): string {
  const trimmed = path.replace(/^\/+/, '');
  return trimmed === '' ? `/${area}` : `/${area}/${trimmed}`;
}
