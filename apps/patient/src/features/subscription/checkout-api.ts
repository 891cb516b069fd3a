import { checkoutResultSchema, orderSchema, pageOf, quoteSchema, type CheckoutInput } from '@rpm/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { SUBSCRIPTION_KEY } from './subscription-api';

export const ORDERS_KEY = [...SUBSCRIPTION_KEY, 'orders'] as const;
export const ORDERS_PAGE_SIZE = 10;
const orderPageSchema = pageOf(orderSchema);

/** What the cart costs (items, coupon, tax, total), nothing stored. */
export const quoteCheckout = (input: CheckoutInput) => api.post('/health/me/checkout/quote', input, quoteSchema);

/** Places the order and starts its payment: where to send the payer (none when a coupon paid it all). */
export const placeOrder = (input: CheckoutInput) => api.post('/health/me/checkout', input, checkoutResultSchema);

/** One of the profile's orders; asked again every 2 s while the provider has not answered. */
export const myOrderQuery = (code: string) =>
  queryOptions({
    queryKey: [...ORDERS_KEY, 'one', code],
    queryFn: () => api.get(`/health/me/orders/${encodeURIComponent(code)}`, orderSchema),
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? 2_000 : false),
  });

/** The profile's orders, newest first, a page at a time. */
export const myOrdersQuery = () =>
  infiniteQueryOptions({
    queryKey: [...ORDERS_KEY, 'list'],
    queryFn: ({ pageParam }) => api.get(`/health/me/orders?page=${String(pageParam)}&size=${String(ORDERS_PAGE_SIZE)}`, orderPageSchema),
    initialPageParam: 0,
    getNextPageParam: (last) => ((last.page + 1) * last.size < last.total ? last.page + 1 : undefined),
  });
