import type { RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/**
 * Announcements: the list, compose and manage pages for those who hold notification.announce,
 * and the reading page every signed-in recipient opens from the bell (`/announcements/<id>`).
 */
export const announcementRoutes: RouteObject[] = [
  {
    path: 'announcements',
    lazy: lazyPage(
      () => import('./announcements-page').then((m) => m.AnnouncementsPage),
      (page) => <RequirePermission permission="notification.announce">{page}</RequirePermission>,
    ),
  },
  {
    path: 'announcements/new',
    lazy: lazyPage(
      () => import('./announcement-compose-page').then((m) => m.AnnouncementComposePage),
      (page) => <RequirePermission permission="notification.announce">{page}</RequirePermission>,
    ),
  },
  {
    path: 'announcements/:id/edit',
    lazy: lazyPage(
      () => import('./announcement-manage-page').then((m) => m.AnnouncementManagePage),
      (page) => <RequirePermission permission="notification.announce">{page}</RequirePermission>,
    ),
  },
  {
    path: 'announcements/:id',
    lazy: lazyPage(() => import('./announcement-view-page').then((m) => m.AnnouncementViewPage)),
  },
];
