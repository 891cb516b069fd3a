import type { RouteObject } from 'react-router';

/** Sub-user management (spec §2 patient app). Each screen loads on first visit. */
export const profilesRoutes: RouteObject[] = [
  { path: 'sub-users', lazy: async () => ({ Component: (await import('./sub-users-page')).SubUsersPage }) },
  { path: 'sub-users/new', lazy: async () => ({ Component: (await import('./sub-user-form-page')).NewSubUserPage }) },
  { path: 'sub-users/:id/edit', lazy: async () => ({ Component: (await import('./sub-user-form-page')).EditSubUserPage }) },
];
