import { useState } from 'react';
import { Anchor, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { TENANT_REQUEST_STATUSES, type TenantRequestStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { SearchIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { RequestStatusBadge } from './tenant-badges';
import { trialRequestListQuery } from './trial-requests-api';

const PAGE_SIZE = 20;
type StatusFilter = TenantRequestStatus | 'ALL';

function isStatusFilter(value: string | null): value is StatusFilter {
  return value === 'ALL' || (TENANT_REQUEST_STATUSES as readonly (string | null)[]).includes(value);
}

/** /<area>/trial-requests: requests for a trial tenant, newest first, filtered by status. */
export function TrialRequestsPage() {
  const { t } = useTranslation('tenants');
  usePageTitle(t('requests.pageTitle'));
  // The filter is in the address, so "back to the list" from a request returns to the same view.
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('status');
  const status: StatusFilter = isStatusFilter(requested) ? requested : 'NEW';
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(0);
  const requests = useQuery(
    trialRequestListQuery({
      page,
      size: PAGE_SIZE,
      search: debouncedSearch,
      status: status === 'ALL' ? null : status,
    }),
  );

  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('requests.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('requests.subtitle')}
        </Text>
      </Stack>
      <Group align="flex-end" gap="lg">
        <Stack gap={4}>
          <Text fz="sm" fw={500} id="request-status-filter">
            {t('requests.statusFilter')}
          </Text>
          <SegmentedControl
            aria-labelledby="request-status-filter"
            value={status}
            onChange={(value) => {
              setSearchParams(value === 'NEW' ? {} : { status: value }, { replace: true });
              setPage(0);
            }}
            data={[...TENANT_REQUEST_STATUSES, 'ALL' as const].map((value) => ({
              value,
              label: value === 'ALL' ? t('requests.all') : t(`requestStatus.${value}`),
            }))}
          />
        </Stack>
        <TextInput
          label={t('requests.search')}
          placeholder={t('requests.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
          w={360}
        />
      </Group>
      <Paper withBorder radius="md" p="md">
        {requests.isPending ? <LoadingState /> : null}
        {requests.isError ? (
          <ErrorState
            error={requests.error}
            title={t('requests.loadFailed')}
            onRetry={() => void requests.refetch()}
          />
        ) : null}
        {requests.isSuccess && requests.data.items.length === 0 ? (
          <EmptyList
            title={debouncedSearch ? t('requests.noMatchTitle') : t('requests.emptyTitle')}
            description={
              debouncedSearch ? t('requests.noMatch', { search: debouncedSearch }) : t('requests.empty')
            }
          />
        ) : null}
        {requests.isSuccess && requests.data.items.length > 0 ? (
          <>
            <Table
              highlightOnHover
              verticalSpacing="sm"
              aria-label={t('requests.tableLabel')}
              data-testid="trial-requests-table"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('requests.organization')}</Table.Th>
                  <Table.Th>{t('requests.code')}</Table.Th>
                  <Table.Th>{t('requests.requester')}</Table.Th>
                  <Table.Th>{t('requests.received')}</Table.Th>
                  <Table.Th>{t('requests.status')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: requests.isPlaceholderData ? 0.6 : 1 }}>
                {requests.data.items.map((request) => (
                  <Table.Tr key={request.id}>
                    <Table.Td>
                      <Anchor component={Link} to={request.id} fw={600}>
                        {request.organizationName}
                      </Anchor>
                      {request.officialName ? (
                        <Text fz="xs" c="dimmed" lineClamp={1} maw={320}>
                          {request.officialName}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Text ff="monospace" fz="sm">
                        {request.requestedCode}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text fz="sm">{request.requesterName}</Text>
                      <Text fz="xs" c="dimmed">
                        {request.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDateTime(request.createdAt)}</Table.Td>
                    <Table.Td>
                      <RequestStatusBadge status={request.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <TablePager page={page} size={PAGE_SIZE} total={requests.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}
