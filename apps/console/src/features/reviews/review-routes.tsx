import type { RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Rating and review management (spec §2): the list, with a review's detail in a drawer. */
export const reviewRoutes: RouteObject[] = [
  {
    path: 'reviews',
    lazy: lazyPage(
      () => import('./reviews-page').then((m) => m.ReviewsPage),
      (page) => <RequirePermission permission="staff.view">{page}</RequirePermission>,
    ),
  },
];
