import { useState } from 'react';
import { Badge, Button, Group, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney, UNLIMITED, type Coupon } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { displayTimeZone, formatNumber, formatPercent, toDisplayDate } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DataTable } from '../shell/data-table';
import { ListSearchField } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePermissions } from '../shell/permissions';
import { CouponDialog } from './coupon-dialog';
import { couponDays } from './coupon-form-values';
import {
  couponListQuery,
  refreshTransactions,
  setCouponEnabled,
  type CouponSortField,
} from './transactions-api';

/**
 * The tenant's coupons (spec §3 Transaction "coupon"): everyone with transaction.view reads them;
 * holders of transaction.manage create them and disable or enable them after a confirmation.
 */
export function CouponsTab() {
  const { t, i18n } = useTranslation('payments');
  const { can } = usePermissions();
  const canManage = can('transaction.manage');
  const queryClient = useQueryClient();
  const zone = displayTimeZone();
  const [isCreating, setCreating] = useState(false);
  const [toggling, setToggling] = useState<Coupon | null>(null);
  const paged = usePagedList<
    CouponSortField,
    { page: number; size: number; sortField: CouponSortField; sortType: 'asc' | 'desc' }
  >({
    page: 0,
    size: 20,
    sortField: 'code',
    sortType: 'asc',
  });
  const coupons = useQuery(
    couponListQuery({ page: paged.filter.page, size: paged.filter.size, search: paged.debouncedSearch }),
  );
  const toggle = useMutation({
    mutationFn: (coupon: Coupon) => setCouponEnabled(coupon.id, !coupon.enabled),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (saved) => {
      notifySuccess(
        t(saved.enabled ? 'transactions.coupons.enabled' : 'transactions.coupons.disabled', {
          code: saved.code,
        }),
      );
      await refreshTransactions(queryClient);
      setToggling(null);
    },
  });
  const valueOf = (coupon: Coupon) =>
    coupon.kind === 'PERCENT' || coupon.currency === null
      ? formatPercent(coupon.value / 10_000, 2)
      : formatMoney(coupon.value, coupon.currency, i18n.language);

  const columns: Column<Coupon, CouponSortField>[] = [
    {
      id: 'code',
      header: t('transactions.coupons.columns.code'),
      isMonospace: true,
      isNoWrap: true,
      cell: (coupon) => coupon.code,
    },
    {
      id: 'kind',
      header: t('transactions.coupons.columns.kind'),
      cell: (coupon) => t(`transactions.coupons.kinds.${coupon.kind}`),
    },
    {
      id: 'value',
      header: t('transactions.coupons.columns.value'),
      align: 'right',
      isNoWrap: true,
      cell: valueOf,
    },
    {
      id: 'validity',
      header: t('transactions.coupons.columns.validity'),
      isNoWrap: true,
      cell: (coupon) => {
        const days = couponDays(coupon, zone);
        return t('transactions.coupons.validity', {
          from: toDisplayDate(days.first),
          to: toDisplayDate(days.last),
        });
      },
    },
    {
      id: 'uses',
      header: t('transactions.coupons.columns.uses'),
      isNoWrap: true,
      cell: (coupon) =>
        coupon.maxUses === UNLIMITED
          ? t('transactions.coupons.usesUnlimited', { used: formatNumber(coupon.usedCount) })
          : t('transactions.coupons.uses', {
              used: formatNumber(coupon.usedCount),
              max: formatNumber(coupon.maxUses),
            }),
    },
    {
      id: 'state',
      header: t('transactions.coupons.columns.state'),
      isNoWrap: true,
      cell: (coupon) => (
        <Badge color={coupon.enabled ? 'teal' : 'gray'} variant="light" data-testid="coupon-state">
          {t(coupon.enabled ? 'transactions.coupons.states.true' : 'transactions.coupons.states.false')}
        </Badge>
      ),
    },
    ...(canManage
      ? [
          {
            id: 'actions',
            header: t('transactions.coupons.columns.actions'),
            isHeaderHidden: true,
            isNoWrap: true,
            cell: (coupon: Coupon) => (
              <Button
                size="xs"
                variant="light"
                color={coupon.enabled ? 'red' : undefined}
                aria-label={`${t(coupon.enabled ? 'transactions.coupons.disable' : 'transactions.coupons.enable')} ${coupon.code}`}
                onClick={() => {
                  toggle.reset();
                  setToggling(coupon);
                }}
              >
                {t(coupon.enabled ? 'transactions.coupons.disable' : 'transactions.coupons.enable')}
              </Button>
            ),
          } satisfies Column<Coupon, CouponSortField>,
        ]
      : []),
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('transactions.coupons.search')}
          placeholder={t('transactions.coupons.searchPlaceholder')}
          width={260}
        />
        {canManage ? (
          <Button
            onClick={() => {
              setCreating(true);
            }}
          >
            {t('transactions.coupons.create')}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        query={coupons}
        list={paged}
        label={t('transactions.tabs.coupons')}
        testId="coupons-table"
        rowTestId="coupon-row"
        isFiltered={paged.debouncedSearch !== ''}
        texts={{
          loadFailed: t('transactions.coupons.list.loadFailed'),
          emptyTitle: t('transactions.coupons.list.emptyTitle'),
          emptyHint: t('transactions.coupons.list.emptyHint'),
          noMatchTitle: t('transactions.coupons.list.noMatchTitle'),
          noMatchHint: t('transactions.coupons.list.noMatchHint'),
        }}
      />
      {isCreating ? (
        <CouponDialog
          onClose={() => {
            setCreating(false);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={toggling !== null}
        title={
          toggling === null
            ? ''
            : t(toggling.enabled ? 'transactions.coupons.disableTitle' : 'transactions.coupons.enableTitle', {
                code: toggling.code,
              })
        }
        text={
          toggling === null
            ? ''
            : t(toggling.enabled ? 'transactions.coupons.disableText' : 'transactions.coupons.enableText')
        }
        confirmLabel={t(
          toggling?.enabled === false ? 'transactions.coupons.enable' : 'transactions.coupons.disable',
        )}
        confirmColor={toggling?.enabled === false ? undefined : 'red'}
        isPending={toggle.isPending}
        error={toggle.error}
        onConfirm={() => {
          if (toggling !== null) toggle.mutate(toggling);
        }}
        onClose={() => {
          setToggling(null);
        }}
      />
    </Stack>
  );
}
