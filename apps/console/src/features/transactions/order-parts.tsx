import type { ReactNode } from 'react';
import { Badge, Stack, Text } from '@mantine/core';
import { WEB_STATUS, type Order, type OrderStatus, type PaymentMethod } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<OrderStatus, string> = {
  PENDING: 'blue',
  SUCCESS: 'teal',
  FAILED: 'red',
  REFUNDED: 'grape',
  TIMEOUT: 'orange',
};

/** An order's status as a badge with its web status number (spec §4: 0 failed … 3 refund). */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('payments');
  const number = WEB_STATUS[status];
  return (
    <Badge
      color={STATUS_COLOR[status]}
      variant="light"
      title={t('transactions.webStatusTitle', { number })}
      data-testid="order-status"
      // Whole in a table cell too: the label keeps its width rather than end in "…".
      style={{ textTransform: 'none', flex: 'none' }}
      styles={{ label: { overflow: 'visible' } }}
    >
      {t('transactions.statusBadge', { status: t(`orders.statuses.${status}`), number })}
    </Badge>
  );
}

/** The words of an order's payment method, its provider's response and its other codes. */
export function useOrderWords() {
  const { t } = useTranslation('payments');
  return {
    method: (method: PaymentMethod | null) =>
      method === null ? t('transactions.noMethod') : t(`transactions.methods.${method}`),
    /** Spec §8: the provider's result in words; empty while there is none. */
    response: (order: Pick<Order, 'result'>) => (order.result === null ? '' : t(`results.${order.result}`)),
  };
}

/** A labelled value of a detail card. */
export function Field({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text component="div" fz="sm" fw={500} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}
