import { useState } from 'react';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DOCTOR_RESTORE_DAYS, type DeactivatedDoctor } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DataTable } from '../shell/data-table';
import { ListSearchField } from '../shell/data-table-filters';
import { TwoLineCell } from '../shell/data-table-cells';
import { usePagedList } from '../shell/paged-list';
import { deactivatedDoctorsQuery, refreshDoctors, restoreDoctor } from './doctors-api';

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
  const queryClient = useQueryClient();
  const paged = usePagedList<
    'deactivated',
    { page: number; size: number; sortField: 'deactivated'; sortType: 'asc' | 'desc' }
  >({
    page: 0,
    size: 10,
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
  const columns: Column<DeactivatedDoctor, 'deactivated'>[] = [
    {
      id: 'doctor',
      header: t('requests.doctor'),
      cell: (doctor) => <TwoLineCell title={doctor.fullName} detail={doctor.email ?? doctor.phone ?? ''} />,
    },
    {
      id: 'center',
      header: t('list.center'),
      cell: (doctor) => <Text fz="sm">{doctor.center?.name ?? '—'}</Text>,
    },
    {
      id: 'since',
      header: t('deactivated.since'),
      cell: (doctor) => <Text fz="sm">{formatDateTime(doctor.deactivatedAt)}</Text>,
    },
    {
      id: 'restoreUntil',
      header: t('deactivated.restoreUntil'),
      cell: (doctor) => (
        <Stack gap={2} align="flex-start">
          <Text fz="sm">{formatDate(doctor.restoreUntil)}</Text>
          <DaysLeft doctor={doctor} />
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: t('requests.actions'),
      cell: (doctor) => (
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
      ),
    },
  ];
  return (
    <Stack gap="md">
      <Text c="dimmed" fz="sm">
        {t('deactivated.hint', { days: DOCTOR_RESTORE_DAYS })}
      </Text>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          width={280}
        />
      </Group>
      <DataTable
        columns={columns}
        query={doctors}
        list={paged}
        label={t('requests.tabs.deactivated')}
        testId="deactivated-doctors"
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('deactivated.loadFailed'),
          emptyTitle: t('deactivated.empty'),
          noMatchTitle: t('requests.noMatchTitle'),
          noMatchHint: t('requests.noMatchHint'),
        }}
      />
      <ConfirmDialog
        isOpen={restoring !== null}
        title={t('deactivated.restoreTitle')}
        text={t('deactivated.restoreText', { name: restoring?.fullName ?? '' })}
        confirmLabel={t('deactivated.restore')}
        isPending={restore.isPending}
        error={restore.error}
        errorTestId="restore-error"
        onConfirm={() => {
          if (restoring) restore.mutate(restoring.id);
        }}
        onClose={() => {
          setRestoring(null);
        }}
      />
    </Stack>
  );
}
