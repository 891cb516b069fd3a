import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MESSAGE_KINDS, MESSAGE_STATUSES, type MessageEntry } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { DayFilterField } from '../shell/date-field';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { messageListQuery, type MessageFilter } from './monitoring-api';

const STATUS_COLOR: Record<(typeof MESSAGE_STATUSES)[number], string> = {
  PENDING: 'yellow',
  SENT: 'teal',
  DELIVERED: 'teal',
  UNDELIVERED: 'red',
  FAILED: 'red',
  PLACED: 'yellow',
  ANSWERED: 'teal',
  COMPLETED: 'teal',
  NO_ANSWER: 'orange',
  BUSY: 'orange',
};

/** SMS and call management (spec §2, §3 SMS or call): from, to, provider, send date, status. */
export function MessagesPage() {
  const { t } = useTranslation('monitoring');
  // The adapters' names in words; an adapter added later shows its own name until it is worded.
  const providerLabel = (provider: string) => t(`messages.providers.${provider}`, { defaultValue: provider });
  usePageTitle(t('messages.title'));
  const paged = usePagedList<'sent', Omit<MessageFilter, 'search'>>({
    page: 0,
    size: 20,
    sortField: 'sent',
    sortType: 'desc',
    kind: null,
    status: null,
    from: null,
    to: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const messages = useQuery(messageListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered =
    debouncedSearch !== '' ||
    filter.kind !== null ||
    filter.status !== null ||
    filter.from !== null ||
    filter.to !== null;
  const columns: Column<MessageEntry, 'sent'>[] = [
    { id: 'kind', header: t('messages.columns.kind'), cell: (row) => t(`messageKind.${row.kind}`) },
    {
      id: 'from',
      header: t('messages.columns.from'),
      isMonospace: true,
      cell: (row) => (row.from === '' ? '—' : row.from),
    },
    {
      id: 'to',
      header: t('messages.columns.to'),
      cell: (row) => (
        <>
          <Text fz="sm" ff="monospace">
            {row.to}
          </Text>
          <Text fz="xs" c="dimmed">
            {row.toName}
          </Text>
        </>
      ),
    },
    {
      id: 'patient',
      header: t('messages.columns.patient'),
      isNoWrap: true,
      cell: (row) =>
        row.sosCaseId === null ? (
          row.patient.fullName
        ) : (
          <Anchor component={Link} to={`../sos/${row.sosCaseId}`} relative="path">
            {row.patient.fullName}
          </Anchor>
        ),
    },
    {
      id: 'purpose',
      header: t('messages.columns.purpose'),
      cell: (row) => t(`purpose.${row.purpose}`, { defaultValue: row.purpose }),
    },
    {
      id: 'provider',
      header: t('messages.columns.provider'),
      cell: (row) => (row.provider === null ? '—' : providerLabel(row.provider)),
    },
    {
      id: 'sent',
      header: t('messages.columns.sent'),
      sortField: 'sent',
      isNoWrap: true,
      cell: (row) => formatDateTime(row.sentAt),
    },
    {
      id: 'status',
      header: t('messages.columns.status'),
      cell: (row) => (
        <Badge
          variant="light"
          color={STATUS_COLOR[row.status]}
          tt="none"
          styles={{ label: { overflow: 'visible' } }}
        >
          {t(`messageStatus.${row.status}`)}
        </Badge>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1380}>
      <Title order={1} fz={26}>
        {t('messages.title')}
      </Title>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('messages.searchLabel')}
          placeholder={t('messages.searchPlaceholder')}
          width={260}
        />
        <ValueFilter
          values={MESSAGE_KINDS}
          labelOf={(kind) => t(`messageKind.${kind}`)}
          value={filter.kind}
          onChange={(kind) => {
            update({ kind });
          }}
          label={t('messages.kindFilter')}
          placeholder={t('messages.allKinds')}
          width={150}
        />
        <ValueFilter
          values={MESSAGE_STATUSES}
          labelOf={(status) => t(`messageStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('messages.statusFilter')}
          placeholder={t('messages.allStatuses')}
          width={160}
        />
        <DayFilterField
          label={t('messages.from')}
          value={filter.from}
          onChange={(from) => {
            update({ from });
          }}
        />
        <DayFilterField
          label={t('messages.to')}
          value={filter.to}
          onChange={(to) => {
            update({ to });
          }}
        />
      </Group>
      <DataTable
        columns={columns}
        query={messages}
        list={paged}
        label={t('messages.title')}
        testId="messages-table"
        rowTestId="message-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('messages.loadError'),
          emptyTitle: t('messages.empty'),
          noMatchTitle: t('messages.noMatch'),
          noMatchHint: t('messages.noMatchHint'),
        }}
      />
    </Stack>
  );
}
