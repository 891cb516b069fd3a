import type { RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/**
 * Service packages and add-on services (spec §2): the list, with the form in a dialog; code
 * packages (batches of scratch-card codes): their list with the generating dialog, and one batch
 * with its codes.
 */
export const packageRoutes: RouteObject[] = [
  {
    path: 'packages',
    lazy: lazyPage(
      () => import('./packages-page').then((m) => m.PackagesPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
  {
    path: 'code-packages',
    lazy: lazyPage(
      () => import('./code-packages-page').then((m) => m.CodePackagesPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
  {
    path: 'code-packages/:codePackageId',
    lazy: lazyPage(
      () => import('./code-package-detail-page').then((m) => m.CodePackageDetailPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
];
