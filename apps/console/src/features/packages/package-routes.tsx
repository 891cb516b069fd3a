import type { RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Service packages and add-on services (spec §2): the list, with the form in a dialog. */
export const packageRoutes: RouteObject[] = [
  {
    path: 'packages',
    lazy: lazyPage(
      () => import('./packages-page').then((m) => m.PackagesPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
];
