import { Anchor, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS, type Order } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { useMoney } from '../packages/package-badges';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { TwoLineCell } from '../shell/data-table-cells';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { DayFilterField } from '../shell/date-field';
import { usePagedList } from '../shell/paged-list';
import { OrderStatusBadge, useOrderWords } from './order-parts';
import { orderListQuery, type OrderFilter, type OrderSortField } from './transactions-api';

/** The order history's search, filters, page and order, newest first to start with. */
export function useOrderList() {
  return usePagedList<OrderSortField, Omit<OrderFilter, 'search'>>({
    page: 0,
    size: 20,
    sortField: 'created',
    sortType: 'desc',
    status: null,
    method: null,
    type: null,
    from: null,
    to: null,
  });
}
export type OrderList = ReturnType<typeof useOrderList>;

/**
 * The order history (spec §2 transaction control): paged, searched, filtered by status, payment
 * method, type and days, sorted by the server; each order opens on its own page. Its state lives
 * in the page (useOrderList), which exports the list's filters to Excel.
 */
export function OrdersTab({ list: paged }: { list: OrderList }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const words = useOrderWords();
  const { filter, update, debouncedSearch } = paged;
  const orders = useQuery(orderListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered =
    debouncedSearch !== '' ||
    filter.status !== null ||
    filter.method !== null ||
    filter.type !== null ||
    filter.from !== null ||
    filter.to !== null;

  const columns: Column<Order, OrderSortField>[] = [
    {
      id: 'code',
      header: t('transactions.columns.code'),
      sortField: 'code',
      isMonospace: true,
      isNoWrap: true,
      cell: (order) => (
        <Anchor component={Link} to={order.id} fz="sm" ff="monospace">
          {order.code}
        </Anchor>
      ),
    },
    {
      id: 'time',
      header: t('transactions.columns.time'),
      sortField: 'created',
      isNoWrap: true,
      cell: (order) => formatDateTime(order.createdAt),
    },
    {
      id: 'customer',
      header: t('transactions.columns.customer'),
      cell: (order) => <TwoLineCell title={order.customerName} detail={order.customerPhone} />,
    },
    { id: 'package', header: t('transactions.columns.package'), cell: (order) => order.packageName },
    {
      id: 'total',
      header: t('transactions.columns.total'),
      sortField: 'total',
      align: 'right',
      isNoWrap: true,
      cell: (order) => money(order.totalMinor, order.currency),
    },
    { id: 'method', header: t('transactions.columns.method'), cell: (order) => words.method(order.method) },
    {
      id: 'status',
      header: t('transactions.columns.status'),
      sortField: 'status',
      isNoWrap: true,
      cell: (order) => <OrderStatusBadge status={order.status} />,
    },
    {
      id: 'response',
      header: t('transactions.columns.response'),
      visibleFrom: 'lg',
      cell: (order) => words.response(order) || '—',
    },
  ];

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('transactions.search')}
          placeholder={t('transactions.searchPlaceholder')}
          width={280}
        />
        <ValueFilter
          values={ORDER_STATUSES}
          labelOf={(status) => t(`orders.statuses.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('transactions.filters.status')}
          placeholder={t('transactions.filters.any')}
          width={150}
        />
        <ValueFilter
          values={PAYMENT_METHODS}
          labelOf={(method) => t(`transactions.methods.${method}`)}
          value={filter.method}
          onChange={(method) => {
            update({ method });
          }}
          label={t('transactions.filters.method')}
          placeholder={t('transactions.filters.any')}
          width={190}
        />
        <ValueFilter
          values={ORDER_TYPES}
          labelOf={(type) => t(`orders.types.${type}`)}
          value={filter.type}
          onChange={(type) => {
            update({ type });
          }}
          label={t('transactions.filters.type')}
          placeholder={t('transactions.filters.any')}
          width={170}
        />
        <DayFilterField
          label={t('transactions.filters.from')}
          value={filter.from}
          onChange={(from) => {
            update({ from });
          }}
        />
        <DayFilterField
          label={t('transactions.filters.to')}
          value={filter.to}
          onChange={(to) => {
            update({ to });
          }}
        />
      </Group>
      <DataTable
        columns={columns}
        query={orders}
        list={paged}
        label={t('transactions.tabs.orders')}
        testId="orders-table"
        rowTestId="order-row"
        isFiltered={isFiltered}
        minWidth={900}
        texts={{
          loadFailed: t('transactions.list.loadFailed'),
          emptyTitle: t('transactions.list.emptyTitle'),
          emptyHint: t('transactions.list.emptyHint'),
          noMatchTitle: t('transactions.list.noMatchTitle'),
          noMatchHint: t('transactions.list.noMatchHint'),
        }}
      />
    </Stack>
  );
}
