import { useState } from 'react';
import { Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, type AuditAction } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { historyQuery } from './account-api';

const PAGE_SIZE = 20;

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}

/** My activity: the caller's own audit history (sign-ins, password and profile changes…). */
export function ActivityTab() {
  const { t } = useTranslation('account');
  const session = useSession();
  const [page, setPage] = useState(0);
  const [action, setAction] = useState<AuditAction | null>(null);
  const history = useQuery(historyQuery(session.user.userId, { page, size: PAGE_SIZE, action }));
  const label = (code: string) => (isAuditAction(code) ? t(`audit.${code}`) : code);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Text c="dimmed" fz="sm" maw={560}>
          {t('activity.intro')}
        </Text>
        <Select
          label={t('activity.filter')}
          placeholder={t('activity.allActions')}
          data={AUDIT_ACTIONS.map((code) => ({ value: code, label: t(`audit.${code}`) }))}
          value={action}
          onChange={(value) => {
            setAction(value !== null && isAuditAction(value) ? value : null);
            setPage(0);
          }}
          searchable
          clearable
          w={300}
          nothingFoundMessage={t('activity.noActionMatch')}
        />
      </Group>
      <Paper withBorder radius="md" p="md">
        {history.isPending ? <LoadingState /> : null}
        {history.isError ? (
          <ErrorState
            error={history.error}
            title={t('activity.loadFailed')}
            onRetry={() => void history.refetch()}
          />
        ) : null}
        {history.isSuccess && history.data.items.length === 0 ? (
          <EmptyList
            title={t('activity.emptyTitle')}
            description={action ? t('activity.emptyFiltered') : t('activity.empty')}
          />
        ) : null}
        {history.isSuccess && history.data.items.length > 0 ? (
          <>
            <Table
              striped
              highlightOnHover
              verticalSpacing="sm"
              aria-label={t('activity.tableLabel')}
              data-testid="activity-table"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={180}>{t('activity.when')}</Table.Th>
                  <Table.Th>{t('activity.action')}</Table.Th>
                  <Table.Th w={200}>{t('activity.ip')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: history.isPlaceholderData ? 0.6 : 1 }}>
                {history.data.items.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{formatDateTime(entry.occurredAt)}</Table.Td>
                    <Table.Td>{label(entry.action)}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {entry.ip ?? '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <TablePager page={page} size={PAGE_SIZE} total={history.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}
