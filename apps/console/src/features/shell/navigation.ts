import type { Permission, RoleArea } from '@rpm/contracts';
import {
  AlertIcon,
  CardIcon,
  HomeIcon,
  InboxIcon,
  KeyIcon,
  LayersIcon,
  MonitorIcon,
  PulseIcon,
  ShieldIcon,
  StarIcon,
  UploadIcon,
  UserIcon,
  type IconComponent,
} from './icons';
import { BuildingIcon, RequestIcon } from '../tenants/tenant-icons';
import { BuildingIcon as CenterIcon, TreeIcon, UsersIcon } from '../org/org-icons';
import { CalendarIcon } from '../schedules/schedule-icons';
import { AppointmentIcon, CheckInIcon } from '../appointments/appointment-icons';
import { ReceiptIcon } from '../transactions/transaction-icons';

/**
 * One entry of the side navigation. `path` is relative to the user's area (`''` is the area home),
 * so the same entry serves every role that holds the permission. A new feature adds one entry.
 */
export interface NavItem {
  path: string;
  labelKey: NavLabelKey;
  /** Permission needed to see the entry (a list: any one of them); null for pages every signed-in user may open. */
  permission: Permission | readonly Permission[] | null;
  icon?: IconComponent;
}

/** A key of the common catalogue: the shell names every entry without fetching the features' own. */
export type NavLabelKey = `nav.${
  | 'home'
  | 'account'
  | 'roles'
  | 'privacy'
  | 'scopes'
  | 'healthCenters'
  | 'staff'
  | 'reviews'
  | 'tenants'
  | 'trialRequests'
  | 'patients'
  | 'doctors'
  | 'careRequests'
  | 'devices'
  | 'imports'
  | 'transactions'
  | 'sos'
  | 'tickets'
  | 'messages'
  | 'appointments'
  | 'checkIn'
  | 'mySchedule'
  | 'scheduleApproval'
  | 'workingCalendar'
  | 'feedback'
  | 'announcements'
  | 'packages'
  | 'codePackages'}`;

export const NAV_ITEMS: readonly NavItem[] = [
  { path: '', labelKey: 'nav.home', permission: null, icon: HomeIcon },
  { path: 'patients', labelKey: 'nav.patients', permission: 'user.view', icon: PulseIcon },
  { path: 'doctors', labelKey: 'nav.doctors', permission: 'user.view', icon: UsersIcon },
  { path: 'requests', labelKey: 'nav.careRequests', permission: 'relative.view', icon: RequestIcon },
  { path: 'sos', labelKey: 'nav.sos', permission: 'health.sos', icon: AlertIcon },
  { path: 'tickets', labelKey: 'nav.tickets', permission: 'health.sos', icon: InboxIcon },
  { path: 'messages', labelKey: 'nav.messages', permission: 'health.sos', icon: RequestIcon },
  { path: 'devices', labelKey: 'nav.devices', permission: 'device.view', icon: MonitorIcon },
  {
    path: 'appointments',
    labelKey: 'nav.appointments',
    permission: 'appointment.view',
    icon: AppointmentIcon,
  },
  { path: 'check-in', labelKey: 'nav.checkIn', permission: 'appointment.update', icon: CheckInIcon },
  { path: 'my-schedule', labelKey: 'nav.mySchedule', permission: 'appointment.schedule', icon: CalendarIcon },
  {
    path: 'schedule-approval',
    labelKey: 'nav.scheduleApproval',
    permission: 'appointment.approve',
    icon: CalendarIcon,
  },
  {
    path: 'working-calendar',
    labelKey: 'nav.workingCalendar',
    permission: 'appointment.approve',
    icon: CalendarIcon,
  },
  {
    path: 'imports',
    labelKey: 'nav.imports',
    permission: ['user.import', 'device.import'],
    icon: UploadIcon,
  },
  { path: 'feedback', labelKey: 'nav.feedback', permission: 'user.feedback', icon: InboxIcon },
  { path: 'account', labelKey: 'nav.account', permission: 'account.view', icon: UserIcon },
  { path: 'roles', labelKey: 'nav.roles', permission: 'permission.view', icon: KeyIcon },
  { path: 'scopes', labelKey: 'nav.scopes', permission: 'tenant.scope', icon: TreeIcon },
  { path: 'health-centers', labelKey: 'nav.healthCenters', permission: 'tenant.center', icon: CenterIcon },
  { path: 'staff', labelKey: 'nav.staff', permission: 'staff.view', icon: UsersIcon },
  { path: 'reviews', labelKey: 'nav.reviews', permission: 'staff.view', icon: StarIcon },
  { path: 'transactions', labelKey: 'nav.transactions', permission: 'transaction.view', icon: ReceiptIcon },
  { path: 'packages', labelKey: 'nav.packages', permission: 'transaction.view', icon: LayersIcon },
  { path: 'code-packages', labelKey: 'nav.codePackages', permission: 'transaction.view', icon: CardIcon },
  { path: 'tenants', labelKey: 'nav.tenants', permission: 'tenant.view', icon: BuildingIcon },
  {
    path: 'trial-requests',
    labelKey: 'nav.trialRequests',
    permission: 'tenant.request',
    icon: RequestIcon,
  },
  { path: 'announcements', labelKey: 'nav.announcements', permission: 'notification.announce', icon: InboxIcon },
  { path: 'privacy', labelKey: 'nav.privacy', permission: null, icon: ShieldIcon },
];

/** The entries a user may see, in their declared order. */
export function visibleNavItems(items: readonly NavItem[], permissions: ReadonlySet<string>): NavItem[] {
  return items.filter(
    (item) =>
      item.permission === null || [item.permission].flat().some((permission) => permissions.has(permission)),
  );
}

/** Absolute path of a page inside an area: `/doctor`, `/doctor/account`. */
export function areaPath(area: RoleArea, path = ''): string {
  const trimmed = path.replace(/^\/+/, '');
  return trimmed === '' ? `/${area}` : `/${area}/${trimmed}`;
}
