import { useState } from 'react';
import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { CdrTab } from './cdr-tab';
import { CouponsTab } from './coupons-tab';
import { ExportDialog } from './export-dialog';
import { OrdersTab, useOrderList } from './orders-tab';

const TABS = ['orders', 'cdr', 'coupons'] as const;
type Tab = (typeof TABS)[number];

/**
 * Transaction control (spec §2): the order history with its Excel export, the daily CDR files
 * (both transaction.export) and the coupons. The open tab is in the address (?tab=); the order
 * history keeps its filters while another tab is open, and the export starts from them.
 */
export function TransactionsPage() {
  const { t } = useTranslation('payments');
  usePageTitle(t('transactions.title'));
  const { can } = usePermissions();
  const tabs = TABS.filter((tab) => tab !== 'cdr' || can('transaction.export'));
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = tabs.find((candidate) => candidate === searchParams.get('tab')) ?? 'orders';
  const orders = useOrderList();
  const [isExporting, setExporting] = useState(false);
  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('transactions.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('transactions.subtitle')}
          </Text>
        </Stack>
        {tab === 'orders' && can('transaction.export') ? (
          <Button
            variant="default"
            onClick={() => {
              setExporting(true);
            }}
          >
            {t('transactions.export.action')}
          </Button>
        ) : null}
      </Group>
      <Tabs
        value={tab}
        onChange={(value) => {
          setSearchParams(value === null || value === 'orders' ? {} : { tab: value }, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List>
          {tabs.map((item) => (
            <Tabs.Tab key={item} value={item}>
              {t(`transactions.tabs.${item}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="orders" pt="lg">
          <OrdersTab list={orders} />
        </Tabs.Panel>
        {tabs.includes('cdr') ? (
          <Tabs.Panel value="cdr" pt="lg">
            <CdrTab />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="coupons" pt="lg">
          <CouponsTab />
        </Tabs.Panel>
      </Tabs>
      {isExporting ? (
        <ExportDialog
          filter={orders.filter}
          onClose={() => {
            setExporting(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
