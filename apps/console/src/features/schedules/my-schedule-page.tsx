import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea, Title, Alert } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SCHEDULE_STATUSES,
  SCHEDULE_TRANSITIONS,
  type DoctorSchedule,
  type ScheduleStatus,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DataTable } from '../shell/data-table';
import { ValueFilter } from '../shell/data-table-filters';
import { PlusIcon } from '../shell/icons';
import { usePagedList } from '../shell/paged-list';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleKindCell, ScheduleStatusBadge, scheduleDates, scheduleHours } from './schedule-badges';
import { ScheduleRequestForm } from './schedule-request-form';
import { ScheduleTabs } from './schedule-tabs';
import {
  myScheduleListQuery,
  cancelScheduleAppointments,
  requestScheduleDeletion,
  SCHEDULES_QUERY_ROOT,
  withdrawSchedule,
  type ScheduleFilter,
  type ScheduleSortField,
} from './schedules-api';

const canWithdraw = (status: ScheduleStatus) =>
  (SCHEDULE_TRANSITIONS.withdraw.from as readonly ScheduleStatus[]).includes(status);
const canAskDeletion = (status: ScheduleStatus) =>
  (SCHEDULE_TRANSITIONS.requestDeletion.from as readonly ScheduleStatus[]).includes(status);
const LISTED_STATUSES = SCHEDULE_STATUSES.filter((status) => status !== 'DELETED');

function AskDeletionDialog({ schedule, onClose }: { schedule: DoctorSchedule | null; onClose: () => void }) {
  const { t } = useTranslation(['schedules', 'common']);
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [cancelReason, setCancelReason] = useState('');
  const [isCancelReasonMissing, setCancelReasonMissing] = useState(false);
  const ask = useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) => requestScheduleDeletion(id, text),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('mine.deletionAsked'));
      void queryClient.invalidateQueries({ queryKey: SCHEDULES_QUERY_ROOT });
      close();
    },
  });
  // Spec §8: a schedule with appointments to come is not deleted; the doctor may cancel them first.
  const hasAppointments = isApiError(ask.error) && ask.error.code === 'schedule.hasAppointments';
  const cancelAll = useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) => cancelScheduleAppointments(id, text),
    meta: { errorDisplay: 'inline' },
    onSuccess: (result) => {
      notifySuccess(t('mine.appointmentsCanceled', { count: result.canceled }));
      void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'appointments'] });
      setCancelReason('');
      // The deletion is asked again at once: the hours are free now.
      if (schedule) ask.mutate({ id: schedule.id, text: reason });
    },
  });
  function close() {
    ask.reset();
    cancelAll.reset();
    setReason('');
    setCancelReason('');
    setCancelReasonMissing(false);
    onClose();
  }
  return (
    <Modal opened={schedule !== null} onClose={close} title={t('mine.askDeleteTitle')} centered>
      <Stack gap="md">
        <Text fz="sm">
          {schedule ? `${scheduleDates(schedule)}, ${scheduleHours(schedule)}. ` : ''}
          {t('mine.askDeleteText')}
        </Text>
        {ask.isError && !hasAppointments ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(ask.error))}
          </Alert>
        ) : null}
        {hasAppointments ? (
          <Alert color="orange" variant="light" role="alert" title={t('mine.hasAppointmentsTitle')} data-testid="has-appointments">
            <Stack gap="sm">
              <Text fz="sm">{t('mine.hasAppointmentsText')}</Text>
              <Textarea
                label={t('mine.cancelAllReason')}
                value={cancelReason}
                onChange={(event) => {
                  setCancelReason(event.currentTarget.value);
                  setCancelReasonMissing(false);
                }}
                error={isCancelReasonMissing ? t('common:form.required') : undefined}
                autosize
                minRows={2}
                maxLength={500}
                withAsterisk
              />
              {cancelAll.isError ? (
                <Text fz="sm" c="red">
                  {messageText(errorMessageFor(cancelAll.error))}
                </Text>
              ) : null}
              <Group justify="flex-end">
                <Button
                  color="red"
                  variant="light"
                  loading={cancelAll.isPending}
                  onClick={() => {
                    if (cancelReason.trim() === '') {
                      setCancelReasonMissing(true);
                      return;
                    }
                    if (schedule) cancelAll.mutate({ id: schedule.id, text: cancelReason });
                  }}
                >
                  {t('mine.cancelAll')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        <Textarea
          label={t('mine.askDeleteReason')}
          value={reason}
          onChange={(event) => {
            setReason(event.currentTarget.value);
          }}
          autosize
          minRows={2}
          maxLength={500}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common:actions.cancel')}
          </Button>
          <Button
            color="red"
            loading={ask.isPending}
            onClick={() => {
              if (schedule) ask.mutate({ id: schedule.id, text: reason });
            }}
          >
            {t('mine.askDeleteButton')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** /<area>/my-schedule: the doctor's calendar, requests and the request form (spec §2 doctor schedule). */
export function MySchedulePage() {
  const { t } = useTranslation(['schedules', 'common']);
  usePageTitle(t('mine.pageTitle'));
  const session = useSession();
  const queryClient = useQueryClient();
  const [isFormOpen, setFormOpen] = useState(false);
  const [toWithdraw, setToWithdraw] = useState<DoctorSchedule | null>(null);
  const [toDelete, setToDelete] = useState<DoctorSchedule | null>(null);
  const paged = usePagedList<ScheduleSortField, Omit<ScheduleFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'requested',
    sortType: 'desc',
    status: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const schedules = useQuery(myScheduleListQuery({ ...filter, search: debouncedSearch }));
  const withdraw = useMutation({
    mutationFn: (id: string) => withdrawSchedule(id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('mine.withdrawn'));
      void queryClient.invalidateQueries({ queryKey: SCHEDULES_QUERY_ROOT });
      setToWithdraw(null);
    },
  });

  const columns: Column<DoctorSchedule, ScheduleSortField>[] = [
    {
      id: 'dates',
      header: t('columns.dates'),
      sortField: 'start',
      isNoWrap: true,
      cell: (schedule) => (
        <Text fz="sm" fw={600}>
          {scheduleDates(schedule)}
        </Text>
      ),
    },
    { id: 'kind', header: t('columns.kind'), cell: (schedule) => <ScheduleKindCell schedule={schedule} /> },
    { id: 'hours', header: t('columns.hours'), isNoWrap: true, cell: (schedule) => scheduleHours(schedule) },
    {
      id: 'slot',
      header: t('columns.slot'),
      isNoWrap: true,
      cell: (schedule) => t('minutes', { count: schedule.slotMinutes }),
    },
    {
      id: 'requested',
      header: t('columns.requested'),
      sortField: 'requested',
      isNoWrap: true,
      cell: (schedule) => formatDateTime(schedule.requestedAt),
    },
    {
      id: 'status',
      header: t('columns.status'),
      isNoWrap: true,
      cell: (schedule) => (
        <Stack gap={2}>
          <ScheduleStatusBadge status={schedule.displayStatus} />
          {schedule.reason ? (
            <Text fz="xs" c="dimmed" maw={240} lineClamp={2} style={{ whiteSpace: 'normal' }}>
              {t('columns.reason')}: {schedule.reason}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      id: 'actions',
      header: t('columns.actions'),
      isHeaderHidden: true,
      align: 'right',
      cell: (schedule) => (
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          {canWithdraw(schedule.status) ? (
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                withdraw.reset();
                setToWithdraw(schedule);
              }}
            >
              {t('mine.withdraw')}
            </Button>
          ) : null}
          {canAskDeletion(schedule.status) && schedule.displayStatus !== 'EXPIRED' ? (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => {
                setToDelete(schedule);
              }}
            >
              {t('mine.askDelete')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <ScheduleTabs current="my-schedule" />
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('mine.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('mine.subtitle')}
          </Text>
        </Stack>
        <Button
          leftSection={<PlusIcon />}
          onClick={() => {
            setFormOpen(true);
          }}
        >
          {t('mine.requestButton')}
        </Button>
      </Group>
      <ScheduleCalendar
        filter={{ doctorId: session.user.userId, centerId: null, withPending: true }}
        showDoctor={false}
        testId="my-calendar"
      />
      <Group justify="space-between" align="flex-end">
        <Title order={2} fz={20}>
          {t('mine.requestsTitle')}
        </Title>
        <ValueFilter
          values={LISTED_STATUSES}
          labelOf={(status) => t(`status.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('mine.statusFilter')}
          placeholder={t('mine.any')}
          width={200}
        />
      </Group>
      <DataTable
        columns={columns}
        query={schedules}
        list={paged}
        label={t('mine.tableLabel')}
        testId="my-schedules-table"
        rowTestId="schedule-row"
        isFiltered={filter.status !== null}
        texts={{
          loadFailed: t('mine.loadFailed'),
          emptyTitle: t('mine.emptyTitle'),
          emptyHint: t('mine.empty'),
          noMatchTitle: t('mine.noMatchTitle'),
        }}
        minWidth={900}
      />
      <ScheduleRequestForm
        opened={isFormOpen}
        onClose={() => {
          setFormOpen(false);
        }}
      />
      <ConfirmDialog
        isOpen={toWithdraw !== null}
        title={t('mine.withdrawTitle')}
        text={
          toWithdraw
            ? t('mine.withdrawText', { dates: scheduleDates(toWithdraw), hours: scheduleHours(toWithdraw) })
            : ''
        }
        confirmLabel={t('mine.withdraw')}
        confirmColor="red"
        isPending={withdraw.isPending}
        error={withdraw.error}
        onConfirm={() => {
          if (toWithdraw) withdraw.mutate(toWithdraw.id);
        }}
        onClose={() => {
          setToWithdraw(null);
        }}
      />
      <AskDeletionDialog
        schedule={toDelete}
        onClose={() => {
          setToDelete(null);
        }}
      />
    </Stack>
  );
}
