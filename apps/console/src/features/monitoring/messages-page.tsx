import { Anchor, Badge, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MESSAGE_KINDS, MESSAGE_STATUSES } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { DayFilterField } from '../shell/date-field';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { messageListQuery, type MessageFilter } from './monitoring-api';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<(typeof MESSAGE_STATUSES)[number], string> = {
  PENDING: 'yellow',
  SENT: 'teal',
  FAILED: 'red',
  COMPLETED: 'teal',
  NO_ANSWER: 'orange',
};

/** SMS and call management (spec §2, §3 SMS or call): from, to, provider, send date, status. */
export function MessagesPage() {
  const { t } = useTranslation('monitoring');
  // The adapters' names in words; an adapter added later shows its own name until it is worded.
  const providerLabel = (provider: string) =>
    t(`messages.providers.${provider}`, { defaultValue: provider });
  usePageTitle(t('messages.title'));
  const paged = usePagedList<'sent', Omit<MessageFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
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

  return (
    <Stack gap="lg" maw={1380}>
      <Title order={1} fz={26}>
        {t('messages.title')}
      </Title>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('messages.searchLabel')}
          placeholder={t('messages.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={260}
        />
        <Select
          label={t('messages.kindFilter')}
          placeholder={t('messages.allKinds')}
          data={MESSAGE_KINDS.map((kind) => ({ value: kind, label: t(`messageKind.${kind}`) }))}
          value={filter.kind}
          onChange={(value) => {
            update({ kind: MESSAGE_KINDS.find((kind) => kind === value) ?? null });
          }}
          clearable
          w={150}
        />
        <Select
          label={t('messages.statusFilter')}
          placeholder={t('messages.allStatuses')}
          data={MESSAGE_STATUSES.map((status) => ({ value: status, label: t(`messageStatus.${status}`) }))}
          value={filter.status}
          onChange={(value) => {
            update({ status: MESSAGE_STATUSES.find((status) => status === value) ?? null });
          }}
          clearable
          w={160}
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
      <PagedTableFrame
        query={messages}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('messages.loadError'),
          emptyTitle: t('messages.empty'),
          noMatchTitle: t('messages.noMatch'),
          noMatchHint: t('messages.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('messages.title')}
            data-testid="messages-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('messages.columns.kind')}</Table.Th>
                <Table.Th>{t('messages.columns.from')}</Table.Th>
                <Table.Th>{t('messages.columns.to')}</Table.Th>
                <Table.Th>{t('messages.columns.patient')}</Table.Th>
                <Table.Th>{t('messages.columns.purpose')}</Table.Th>
                <Table.Th>{t('messages.columns.provider')}</Table.Th>
                <SortHeader field="sent" sort={filter} onSort={paged.sortBy}>
                  {t('messages.columns.sent')}
                </SortHeader>
                <Table.Th>{t('messages.columns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((row) => (
                <Table.Tr key={row.id} data-testid="message-row">
                  <Table.Td>{t(`messageKind.${row.kind}`)}</Table.Td>
                  <Table.Td ff="monospace">{row.from === '' ? '—' : row.from}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" ff="monospace">
                      {row.to}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {row.toName}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {row.sosCaseId === null ? (
                      row.patient.fullName
                    ) : (
                      <Anchor component={Link} to={`../sos/${row.sosCaseId}`} relative="path">
                        {row.patient.fullName}
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td>{t(`purpose.${row.purpose}`, { defaultValue: row.purpose })}</Table.Td>
                  <Table.Td>{row.provider === null ? '—' : providerLabel(row.provider)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.sentAt)}</Table.Td>
                  <Table.Td>
                    <Badge
                      variant="light"
                      color={STATUS_COLOR[row.status]}
                      tt="none"
                      styles={{ label: { overflow: 'visible' } }}
                    >
                      {t(`messageStatus.${row.status}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
    </Stack>
  );
}
