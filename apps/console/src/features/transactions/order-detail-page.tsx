import { useState, type ReactNode } from 'react';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { WEB_STATUS, type Order } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { translateKey } from '../../i18n';
import { formatDateTime, formatPercent } from '../../lib/format';
import { useMoney } from '../packages/package-badges';
import { usePermissions } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { Field, OrderStatusBadge, useOrderWords } from './order-parts';
import { RefundDialog } from './refund-dialog';
import { orderDetailQuery } from './transactions-api';

/** "PHOTO: package.wearableRequired; …" with each product's problem in words. */
function fulfilmentProblems(text: string): string {
  return text
    .split('; ')
    .map((part) => {
      const [productId = '', code] = part.split(': ');
      return code === undefined ? part : `${productId}: ${translateKey(`errors:${code}`)}`;
    })
    .join('; ');
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} fz="md">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function OrderItems({ order }: { order: Order }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table
        verticalSpacing="xs"
        data-testid="order-items"
        aria-label={t('transactions.detail.sections.items')}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('transactions.detail.itemColumns.productId')}</Table.Th>
            <Table.Th>{t('transactions.detail.itemColumns.name')}</Table.Th>
            <Table.Th>{t('transactions.detail.itemColumns.category')}</Table.Th>
            <Table.Th ta="right">{t('transactions.detail.itemColumns.unitPrice')}</Table.Th>
            <Table.Th ta="right">{t('transactions.detail.itemColumns.quantity')}</Table.Th>
            <Table.Th ta="right">{t('transactions.detail.itemColumns.discount')}</Table.Th>
            <Table.Th ta="right">{t('transactions.detail.itemColumns.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.items.map((item) => (
            <Table.Tr key={item.line} data-testid="order-item">
              <Table.Td ff="monospace">{item.productId}</Table.Td>
              <Table.Td>{item.name}</Table.Td>
              <Table.Td>{t(`transactions.categories.${item.category}`)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(item.unitMinor, order.currency)}
              </Table.Td>
              <Table.Td ta="right">{item.quantity}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(item.discountMinor, order.currency)}
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {money(item.amountMinor, order.currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function OrderDetail({ order }: { order: Order }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const words = useOrderWords();
  const dash = (value: string | null) => (value === null || value === '' ? '—' : value);
  return (
    <>
      <Section title={t('transactions.detail.sections.order')} testId="order-summary">
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <Field label={t('transactions.detail.fields.code')} value={order.code} testId="order-code" />
          <Field label={t('transactions.detail.fields.id')} value={order.id} />
          <Field label={t('transactions.detail.fields.customer')} value={order.customerName} />
          <Field label={t('transactions.detail.fields.phone')} value={order.customerPhone} />
          <Field label={t('transactions.detail.fields.package')} value={order.packageName} />
          <Field label={t('transactions.detail.fields.type')} value={t(`orders.types.${order.type}`)} />
          <Field
            label={t('transactions.detail.fields.status')}
            value={<OrderStatusBadge status={order.status} />}
          />
          <Field
            label={t('transactions.detail.fields.webStatus')}
            value={WEB_STATUS[order.status]}
            testId="order-web-status"
          />
          <Field label={t('transactions.detail.fields.createdAt')} value={formatDateTime(order.createdAt)} />
          <Field
            label={t('transactions.detail.fields.completedAt')}
            value={order.completedAt === null ? '—' : formatDateTime(order.completedAt)}
          />
          <Field
            label={t('transactions.detail.fields.purchaseChannel')}
            value={t(`transactions.purchaseChannels.${order.purchaseChannel}`)}
          />
          <Field
            label={t('transactions.detail.fields.retailChannel')}
            value={t(`transactions.retailChannels.${order.retailChannel}`)}
          />
          <Field
            label={t('transactions.detail.fields.coupon')}
            value={order.couponCode ?? t('transactions.detail.noCoupon')}
            testId="order-coupon"
          />
          <Field
            label={t('transactions.detail.fields.fulfilment')}
            value={
              <>
                {t(`transactions.fulfilment.${order.fulfilment}`)}
                {order.fulfilmentError === null ? null : (
                  <Text fz="xs" c="dimmed">
                    {fulfilmentProblems(order.fulfilmentError)}
                  </Text>
                )}
              </>
            }
          />
        </SimpleGrid>
      </Section>
      <Section title={t('transactions.detail.sections.payment')}>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
          <Field label={t('transactions.detail.fields.method')} value={words.method(order.method)} />
          <Field label={t('transactions.detail.fields.referenceId')} value={dash(order.referenceId)} />
          <Field
            label={t('transactions.detail.fields.response')}
            value={dash(words.response(order))}
            testId="order-response"
          />
        </SimpleGrid>
      </Section>
      <Section title={t('transactions.detail.sections.items')}>
        <OrderItems order={order} />
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" data-testid="order-amounts">
          <Field
            label={t('transactions.detail.fields.subtotal')}
            value={money(order.subtotalMinor, order.currency)}
          />
          <Field
            label={t('transactions.detail.fields.discount')}
            value={money(order.discountMinor, order.currency)}
          />
          <Field
            label={t('transactions.detail.fields.tax', { rate: formatPercent(order.taxRate / 10_000, 2) })}
            value={money(order.taxMinor, order.currency)}
          />
          <Field
            label={t('transactions.detail.fields.total')}
            value={money(order.totalMinor, order.currency)}
            testId="order-total"
          />
        </SimpleGrid>
      </Section>
      <Section title={t('transactions.detail.sections.refund')} testId="order-refund">
        {order.refundedAt === null ? (
          <Text fz="sm" c="dimmed">
            {t('transactions.detail.notRefunded')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
            <Field
              label={t('transactions.detail.fields.refunded')}
              value={money(order.refundedMinor, order.currency)}
            />
            <Field
              label={t('transactions.detail.fields.refundedAt')}
              value={formatDateTime(order.refundedAt)}
            />
            <Field
              label={t('transactions.detail.fields.refundReason')}
              value={dash(order.refundReason)}
              testId="order-refund-reason"
            />
          </SimpleGrid>
        )}
      </Section>
    </>
  );
}

/**
 * One order (spec §3 Transaction or order): every field, its items with their discounts, the
 * coupon, the tax and any refund. Holders of transaction.manage refund a paid order.
 */
export function OrderDetailPage() {
  const { t } = useTranslation('payments');
  const { orderId = '' } = useParams();
  const order = useQuery(orderDetailQuery(orderId));
  usePageTitle(
    order.data ? t('transactions.detail.title', { code: order.data.code }) : t('transactions.title'),
  );
  const { can } = usePermissions();
  const [isRefunding, setRefunding] = useState(false);
  const canRefund =
    can('transaction.manage') && order.data?.status === 'SUCCESS' && order.data.totalMinor > 0;
  return (
    <Stack gap="lg" maw={1280}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        ← {t('transactions.detail.back')}
      </Anchor>
      {order.isPending ? <LoadingState /> : null}
      {order.isError ? (
        <ErrorState
          error={order.error}
          title={t('transactions.detail.loadFailed')}
          onRetry={() => void order.refetch()}
        />
      ) : null}
      {order.isSuccess ? (
        <>
          <Group justify="space-between" align="flex-end">
            <Title order={1} fz={26}>
              {t('transactions.detail.title', { code: order.data.code })}
            </Title>
            {canRefund ? (
              <Button
                color="red"
                variant="light"
                onClick={() => {
                  setRefunding(true);
                }}
              >
                {t('transactions.refund.action')}
              </Button>
            ) : null}
          </Group>
          <OrderDetail order={order.data} />
          {isRefunding ? (
            <RefundDialog
              order={order.data}
              onClose={() => {
                setRefunding(false);
              }}
            />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}
