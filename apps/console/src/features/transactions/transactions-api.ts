import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  cdrFileSchema,
  couponSchema,
  orderSchema,
  pageOf,
  type CouponInput,
  type OrderExportInput,
  type OrderStatus,
  type OrderType,
  type PaymentMethod,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { listQuery } from '../../api/list-query';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { downloadFile } from '../imports/imports-api';

export const TRANSACTIONS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'transactions'] as const;
const enc = encodeURIComponent;

export type OrderSortField = 'created' | 'total' | 'status' | 'code';
export interface OrderFilter {
  page: number;
  size: number;
  search: string;
  sortField: OrderSortField;
  sortType: 'asc' | 'desc';
  status: OrderStatus | null;
  method: PaymentMethod | null;
  type: OrderType | null;
  /** Days (yyyy-MM-dd) in the tenant's time zone, both included. */
  from: string | null;
  to: string | null;
}

const orderPageSchema = pageOf(orderSchema);
const cdrPageSchema = pageOf(cdrFileSchema);
const couponPageSchema = pageOf(couponSchema);

export const orderListQuery = (filter: OrderFilter) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_ROOT, 'orders', filter],
    queryFn: ({ signal }) =>
      api.get(
        `/account/transactions?${listQuery(filter, {
          status: filter.status,
          method: filter.method,
          type: filter.type,
          from: filter.from,
          to: filter.to,
        })}`,
        { schema: orderPageSchema, signal },
      ),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const orderDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_ROOT, 'order', id],
    queryFn: ({ signal }) => api.get(`/account/transactions/${enc(id)}`, { schema: orderSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const cdrListQuery = (filter: { page: number; size: number }) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_ROOT, 'cdr', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/transactions/cdr?${listQuery(filter)}`, { schema: cdrPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export type CouponSortField = 'code';
export interface CouponFilter {
  page: number;
  size: number;
  search: string;
}

export const couponListQuery = (filter: CouponFilter) =>
  queryOptions({
    queryKey: [...TRANSACTIONS_QUERY_ROOT, 'coupons', filter],
    queryFn: ({ signal }) =>
      api.get(`/account/coupons?${listQuery(filter)}`, { schema: couponPageSchema, signal }),
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export function refundOrder(id: string, reason: string) {
  return api.post(`/account/transactions/${enc(id)}/refund`, { reason }, { schema: orderSchema });
}

export function createCoupon(input: CouponInput) {
  return api.post('/account/coupons', input, { schema: couponSchema });
}

export function setCouponEnabled(id: string, enabled: boolean) {
  return api.put(`/account/coupons/${enc(id)}/state`, { enabled }, { schema: couponSchema });
}

/** The order history as .xlsx with the chosen attributes (the browser's download). */
export function downloadOrderExport(input: OrderExportInput): Promise<void> {
  return downloadFile('/account/transactions/export', `transactions-${input.from}-${input.to}.xlsx`, input);
}

/** One daily CDR file (CSV) as the browser's download. */
export function downloadCdrFile(id: string, fileName: string): Promise<void> {
  return downloadFile(`/account/transactions/cdr/${enc(id)}`, fileName);
}

/** After a refund or a coupon change: lists and orders may all differ. */
export function refreshTransactions(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: TRANSACTIONS_QUERY_ROOT });
}
