import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ANNOUNCEMENT_STATUSES, type AnnouncementStatus, type AnnouncementSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { PlusIcon } from '../shell/icons';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { announcementListQuery, type AnnouncementFilter, type AnnouncementSortField } from './announcements-api';
import { useAudienceLabel } from './audience-label';

const STATUS_COLORS: Record<AnnouncementStatus, string> = {
  DRAFT: 'gray',
  SCHEDULED: 'blue',
  PUBLISHED: 'teal',
  CANCELED: 'red',
};

export function AnnouncementStatusBadge({ status }: { status: AnnouncementStatus }) {
  const { t } = useTranslation('notifications');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" style={{ overflow: 'visible' }} styles={{ label: { overflow: 'visible' } }}>
      {t(`announcements.status.${status}`)}
    </Badge>
  );
}

/**
 * Announcements (spec §2 "announcements (compose, list)"): those within the caller's level, with
 * their state, audience, time and read counts; search by title, filter by state, sort, pages.
 */
export function AnnouncementsPage() {
  const { t } = useTranslation('notifications');
  usePageTitle(t('announcements.pageTitle'));
  const audienceLabel = useAudienceLabel();
  const paged = usePagedList<AnnouncementSortField, Omit<AnnouncementFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'created',
    sortType: 'desc',
    status: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const list = useQuery(announcementListQuery({ ...filter, search: debouncedSearch }));
  const columns: Column<AnnouncementSummary, AnnouncementSortField>[] = [
    {
      id: 'title',
      header: t('announcements.titleColumn'),
      sortField: 'title',
      cell: (row) => (
        <Anchor component={Link} to={`${row.id}/edit`} fw={600}>
          {row.title}
        </Anchor>
      ),
    },
    { id: 'audience', header: t('announcements.audience'), cell: (row) => audienceLabel(row.audience) },
    { id: 'status', header: t('announcements.statusColumn'), sortField: 'status', cell: (row) => <AnnouncementStatusBadge status={row.status} /> },
    {
      id: 'publishAt',
      header: t('announcements.when'),
      sortField: 'publishAt',
      cell: (row) => {
        const at = row.publishedAt ?? row.publishAt;
        return at === null ? <Text c="dimmed">—</Text> : formatDateTime(at);
      },
    },
    {
      id: 'reads',
      header: t('announcements.reads'),
      cell: (row) =>
        row.status === 'PUBLISHED' ? (
          <Text fz="sm" data-testid="announcement-reads">
            {t('announcements.readCount', { read: row.read, recipients: row.recipients })}
          </Text>
        ) : (
          <Text c="dimmed">—</Text>
        ),
    },
    { id: 'created', header: t('announcements.created'), sortField: 'created', cell: (row) => formatDateTime(row.createdAt) },
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('announcements.pageTitle')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('announcements.subtitle')}
          </Text>
        </Stack>
        <Button component={Link} to="new" leftSection={<PlusIcon />}>
          {t('announcements.compose')}
        </Button>
      </Group>
      <Group gap="sm" align="flex-end">
        <ListSearchField list={paged} label={t('announcements.search')} placeholder={t('announcements.searchPlaceholder')} width={300} />
        <ValueFilter
          values={ANNOUNCEMENT_STATUSES}
          labelOf={(status) => t(`announcements.status.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('announcements.statusFilter')}
          placeholder={t('announcements.anyStatus')}
          width={200}
        />
      </Group>
      <DataTable
        columns={columns}
        query={list}
        list={paged}
        label={t('announcements.pageTitle')}
        testId="announcements-table"
        isFiltered={debouncedSearch !== '' || filter.status !== null}
        texts={{
          loadFailed: t('announcements.loadFailed'),
          emptyTitle: t('announcements.emptyTitle'),
          emptyHint: t('announcements.emptyHint'),
          noMatchTitle: t('announcements.noMatchTitle'),
          noMatchHint: t('announcements.noMatchHint'),
        }}
      />
    </Stack>
  );
}
