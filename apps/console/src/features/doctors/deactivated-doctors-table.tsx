import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DOCTOR_RESTORE_DAYS, type DeactivatedDoctor } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate, formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, usePagedList } from '../shell/paged-list';
import { deactivatedDoctorsQuery, refreshDoctors, restoreDoctor } from './doctors-api';

const PAGE_SIZE = 10;

function DaysLeft({ doctor }: { doctor: DeactivatedDoctor }) {
  const { t } = useTranslation('doctors');
  if (!doctor.restorable)
    return (
      <Badge color="gray" variant="light" tt="none">
        {t('deactivated.periodOver')}
      </Badge>
    );
  return (
    <Badge color={doctor.daysLeft <= 7 ? 'orange' : 'teal'} variant="light" tt="none">
      {t('deactivated.daysLeft', { count: doctor.daysLeft })}
    </Badge>
  );
}

/** Deactivated doctors with the days left to restore them (spec §4: within 30 days), for admins. */
export function DeactivatedDoctorsTable() {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const paged = usePagedList<
    'deactivated',
    { page: number; size: number; sortField: 'deactivated'; sortType: 'asc' | 'desc' }
  >({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'deactivated',
    sortType: 'desc',
  });
  const { filter, debouncedSearch } = paged;
  const doctors = useQuery(
    deactivatedDoctorsQuery({ page: filter.page, size: filter.size, search: debouncedSearch }),
  );
  const [restoring, setRestoring] = useState<DeactivatedDoctor | null>(null);
  const restore = useMutation({
    mutationFn: (id: string) => restoreDoctor(id),
    meta: { errorDisplay: 'inline' },
    onSuccess: (restored) => {
      notifySuccess(t('deactivated.restored', { name: restored.fullName }));
      refreshDoctors(queryClient);
      setRestoring(null);
    },
  });
  return (
    <Stack gap="md">
      <Text c="dimmed" fz="sm">
        {t('deactivated.hint', { days: DOCTOR_RESTORE_DAYS })}
      </Text>
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={280}
        />
      </Group>
      <PagedTableFrame
        query={doctors}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('deactivated.loadFailed'),
          emptyTitle: t('deactivated.empty'),
          noMatchTitle: t('requests.noMatchTitle'),
          noMatchHint: t('requests.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('requests.tabs.deactivated')}
            data-testid="deactivated-doctors"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('requests.doctor')}</Table.Th>
                <Table.Th>{t('list.center')}</Table.Th>
                <Table.Th>{t('deactivated.since')}</Table.Th>
                <Table.Th>{t('deactivated.restoreUntil')}</Table.Th>
                <Table.Th>{t('requests.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((doctor) => (
                <Table.Tr key={doctor.id}>
                  <Table.Td>
                    <Text fz="sm" fw={600}>
                      {doctor.fullName}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {doctor.email ?? doctor.phone ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{doctor.center?.name ?? '—'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{formatDateTime(doctor.deactivatedAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2} align="flex-start">
                      <Text fz="sm">{formatDate(doctor.restoreUntil)}</Text>
                      <DaysLeft doctor={doctor} />
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => {
                        restore.reset();
                        setRestoring(doctor);
                      }}
                      aria-label={t('deactivated.restoreLabel', { name: doctor.fullName })}
                    >
                      {t('deactivated.restore')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
      <Modal
        opened={restoring !== null}
        onClose={() => {
          setRestoring(null);
        }}
        title={t('deactivated.restoreTitle')}
        centered
      >
        <Stack gap="md">
          <Text>{t('deactivated.restoreText', { name: restoring?.fullName ?? '' })}</Text>
          {restore.isError ? (
            <Alert color="red" variant="light" role="alert" data-testid="restore-error">
              {messageText(errorMessageFor(restore.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setRestoring(null);
              }}
            >
              {tc('actions.cancel')}
            </Button>
            <Button
              loading={restore.isPending}
              onClick={() => {
                if (restoring) restore.mutate(restoring.id);
              }}
            >
              {t('deactivated.restore')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
