import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy modules would become a CSS-only chunk (see doctors/routes.tsx).
import './notifications.css';

/**
 * The notification centre's own screen: how each type of notification reaches the account. The
 * inbox is the Updates tab of the notifications page (features/alerts); the mandatory notices sit
 * over every screen (alerts layer). Loaded on first visit.
 */
export const notificationsRoutes: RouteObject[] = [
  {
    path: 'notifications/settings',
    lazy: async () => ({ Component: (await import('./preferences-page')).NotificationPreferencesPage }),
  },
  {
    // Where an announcement's notice leads (the same path as in the console).
    path: 'announcements/:id',
    lazy: async () => ({ Component: (await import('./announcement-page')).AnnouncementPage }),
  },
];
