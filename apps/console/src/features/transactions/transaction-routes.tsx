import type { RouteObject } from 'react-router';
import { lazyPage } from '../../lib/lazy-route';
import { RequirePermission } from '../shell/permissions';

/**
 * Transaction control (spec §2): the order history with its exports, the daily CDR files and the
 * coupons as tabs of one page, and one order with its items and refund.
 */
export const transactionRoutes: RouteObject[] = [
  {
    path: 'transactions',
    lazy: lazyPage(
      () => import('./transactions-page').then((m) => m.TransactionsPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
  {
    path: 'transactions/:orderId',
    lazy: lazyPage(
      () => import('./order-detail-page').then((m) => m.OrderDetailPage),
      (page) => <RequirePermission permission="transaction.view">{page}</RequirePermission>,
    ),
  },
];
