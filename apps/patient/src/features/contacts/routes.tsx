import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk, which
// the build drops after the service worker's precache list names it (see health/routes.tsx).
import './contacts.css';

/**
 * Contacts (spec §2 patient app): followers, invitations, the patients the account follows
 * ("My Patients"), doctor search and detail, care requests. Each screen loads on first visit.
 */
export const contactsRoutes: RouteObject[] = [
  { path: 'contacts', lazy: async () => ({ Component: (await import('./contacts-page')).ContactsPage }) },
  { path: 'contacts/invite', lazy: async () => ({ Component: (await import('./invite-page')).InvitePage }) },
  {
    path: 'contacts/followers/:contactId',
    lazy: async () => ({ Component: (await import('./follower-page')).FollowerPage }),
  },
];
