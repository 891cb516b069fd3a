import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Stack,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DoctorSchedule,
  ScheduleDecision,
  ScheduleDecisionResult,
  ScheduleStatus,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { translateKey } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { messageText, SUCCESS_TOAST_MILLISECONDS } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { TwoLineCell } from '../shell/data-table-cells';
import { DataTable } from '../shell/data-table';
import { ListSearchField } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { ScheduleKindCell, ScheduleStatusBadge, scheduleDates, scheduleHours } from './schedule-badges';
import {
  decideSchedules,
  scheduleListQuery,
  SCHEDULES_QUERY_ROOT,
  type ScheduleFilter,
  type ScheduleSortField,
} from './schedules-api';

const TABS = [
  'NEW',
  'DELETION_REQUESTED',
  'APPROVED',
  'REJECTED',
] as const satisfies readonly ScheduleStatus[];
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.some((tab) => tab === value);
/** The tabs whose schedules wait for a decision. */
const isDecidable = (tab: Tab) => tab === 'NEW' || tab === 'DELETION_REQUESTED';

/** "2 approved, 1 left as they were: The schedule is no longer in a state that allows this". */
function useSummary(): (result: ScheduleDecisionResult) => { text: string; hasLeft: boolean } {
  const { t } = useTranslation('schedules');
  return (result) => {
    const count = (status: ScheduleStatus) =>
      result.results.filter((item) => item.error === null && item.status === status).length;
    const parts: string[] = [];
    if (count('APPROVED') > 0) parts.push(t('approval.summaryApproved', { count: count('APPROVED') }));
    if (count('REJECTED') > 0) parts.push(t('approval.summaryRejected', { count: count('REJECTED') }));
    if (count('DELETED') > 0) parts.push(t('approval.summaryDeleted', { count: count('DELETED') }));
    const left = result.results.filter((item) => item.error !== null);
    const reasons = [...new Set(left.map((item) => translateKey(`errors:${item.error ?? ''}`)))];
    if (left.length > 0)
      parts.push(t('approval.summaryLeft', { count: left.length, reasons: reasons.join('; ') }));
    return { text: parts.join(', '), hasLeft: left.length > 0 };
  };
}

function ReasonDialog({
  ids,
  tab,
  onClose,
  onDecided,
}: {
  ids: readonly string[] | null;
  tab: Tab;
  onClose: () => void;
  onDecided: (result: ScheduleDecisionResult) => void;
}) {
  const { t } = useTranslation(['schedules', 'common']);
  const [reason, setReason] = useState('');
  const [isMissing, setMissing] = useState(false);
  const reject = useMutation({
    mutationFn: (input: { ids: readonly string[]; reason: string }) =>
      decideSchedules(input.ids, 'REJECT', input.reason),
    meta: { errorDisplay: 'inline' },
    onSuccess: (result) => {
      setReason('');
      onDecided(result);
    },
  });
  const close = () => {
    reject.reset();
    setReason('');
    setMissing(false);
    onClose();
  };
  const isKeep = tab === 'DELETION_REQUESTED';
  const count = ids?.length ?? 0;
  return (
    <Modal
      opened={ids !== null}
      onClose={close}
      title={isKeep ? t('approval.keepTitle', { count }) : t('approval.rejectTitle', { count })}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (ids === null || reject.isPending) return;
          if (reason.trim() === '') {
            setMissing(true);
            return;
          }
          reject.mutate({ ids, reason });
        }}
      >
        <Stack gap="md">
          <Text fz="sm">{t('approval.rejectText')}</Text>
          {reject.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(reject.error))}
            </Alert>
          ) : null}
          <Textarea
            label={t('approval.reason')}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setMissing(false);
            }}
            error={isMissing ? t('common:form.required') : undefined}
            autosize
            minRows={3}
            maxLength={500}
            withAsterisk
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" color="red" loading={reject.isPending}>
              {isKeep ? t('approval.keepButton') : t('approval.rejectButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * /<area>/schedule-approval (spec §2 doctor schedule approval, §4 states): doctors' requests by
 * state, searchable by doctor; new requests and deletion requests are decided one by one or for
 * the selected rows at once, a rejection (or refusal of a deletion) with a reason.
 */
export function ScheduleApprovalPage() {
  const { t } = useTranslation(['schedules', 'common']);
  usePageTitle(t('approval.pageTitle'));
  const queryClient = useQueryClient();
  const summarise = useSummary();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'NEW';
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [toReject, setToReject] = useState<readonly string[] | null>(null);
  const paged = usePagedList<ScheduleSortField, Omit<ScheduleFilter, 'search' | 'status'>>({
    page: 0,
    size: 20,
    sortField: 'requested',
    sortType: 'asc',
  });
  const { filter, debouncedSearch } = paged;
  const schedules = useQuery(scheduleListQuery({ ...filter, status: tab, search: debouncedSearch }));
  const rows = schedules.data?.items ?? [];
  const selectedOnPage = rows.filter((row) => selected.has(row.id)).map((row) => row.id);

  const afterDecision = (result: ScheduleDecisionResult) => {
    const summary = summarise(result);
    // A decision that left some as they were stays on screen until closed, like a failure.
    notifications.show({
      color: summary.hasLeft ? 'orange' : 'teal',
      message: summary.text,
      autoClose: summary.hasLeft ? false : SUCCESS_TOAST_MILLISECONDS,
      withCloseButton: true,
      closeButtonProps: { 'aria-label': translateKey('toast.close') },
    });
    setSelected(new Set());
    setToReject(null);
    void queryClient.invalidateQueries({ queryKey: SCHEDULES_QUERY_ROOT });
  };
  const approve = useMutation({
    mutationFn: (input: { ids: readonly string[]; decision: ScheduleDecision }) =>
      decideSchedules(input.ids, input.decision),
    onSuccess: afterDecision,
  });

  const decidable = isDecidable(tab);
  const isDeletion = tab === 'DELETION_REQUESTED';
  const toggle = (id: string, isOn: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(id);
      else next.delete(id);
      return next;
    });
  };

  const decidedColumn: Column<DoctorSchedule, ScheduleSortField> = {
    id: 'decided',
    header: t('columns.decided'),
    cell: (schedule) =>
      schedule.decidedAt ? (
        <Stack gap={0}>
          <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(schedule.decidedAt)}
          </Text>
          {schedule.decidedBy ? (
            <Text fz="xs" c="dimmed">
              {t('approval.decidedBy', { name: schedule.decidedBy.fullName })}
            </Text>
          ) : null}
          {schedule.reason ? (
            <Text fz="xs" c="dimmed" maw={220} lineClamp={3}>
              {t('columns.reason')}: {schedule.reason}
            </Text>
          ) : null}
        </Stack>
      ) : (
        '—'
      ),
  };
  const statusColumn: Column<DoctorSchedule, ScheduleSortField> = {
    id: 'status',
    header: t('columns.status'),
    isNoWrap: true,
    cell: (schedule) => <ScheduleStatusBadge status={schedule.displayStatus} />,
  };

  const columns: Column<DoctorSchedule, ScheduleSortField>[] = [
    ...(decidable
      ? [
          {
            id: 'select',
            header: t('approval.selectAll'),
            isHeaderHidden: true,
            width: 36,
            cell: (schedule: DoctorSchedule) => (
              <Checkbox
                aria-label={t('approval.selectRow', {
                  doctor: schedule.doctor.fullName,
                  dates: scheduleDates(schedule),
                })}
                checked={selected.has(schedule.id)}
                onChange={(event) => {
                  toggle(schedule.id, event.currentTarget.checked);
                }}
              />
            ),
          },
        ]
      : []),
    {
      id: 'doctor',
      header: t('columns.doctor'),
      sortField: 'doctor',
      cell: (schedule) => (
        <Stack gap={0}>
          <Text fz="sm" fw={600}>
            {schedule.doctor.fullName}
          </Text>
          {schedule.doctor.email ? (
            <Text fz="xs" c="dimmed">
              {schedule.doctor.email}
            </Text>
          ) : null}
          {schedule.doctor.phone ? (
            <Text fz="xs" c="dimmed" ff="monospace">
              {schedule.doctor.phone}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    { id: 'center', header: t('columns.center'), cell: (schedule) => schedule.healthCenter?.name ?? '—' },
    {
      id: 'dates',
      header: t('columns.dates'),
      sortField: 'start',
      cell: (schedule) => (
        <TwoLineCell
          title={
            <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
              {scheduleDates(schedule)}
            </Text>
          }
          detail={<ScheduleKindCell schedule={schedule} />}
        />
      ),
    },
    {
      id: 'hours',
      header: t('columns.hours'),
      isNoWrap: true,
      cell: (schedule) => (
        <TwoLineCell
          title={scheduleHours(schedule)}
          detail={`${t('columns.slot')}: ${t('minutes', { count: schedule.slotMinutes })}`}
        />
      ),
    },
    {
      id: 'requested',
      header: t('columns.requested'),
      sortField: 'requested',
      isNoWrap: true,
      cell: (schedule) => (
        <TwoLineCell
          title={formatDateTime(schedule.requestedAt)}
          detail={
            schedule.deletionRequestedAt
              ? t('approval.deletionAsked', { at: formatDateTime(schedule.deletionRequestedAt) })
              : (schedule.note ?? '')
          }
        />
      ),
    },
    // A new request has not been decided yet: its Decided column would be empty.
    ...(tab === 'NEW' ? [] : [decidedColumn]),
    // Each tab holds one state; only the approved tab mixes them (approved, and expired once past).
    ...(tab === 'APPROVED' ? [statusColumn] : []),
    ...(decidable
      ? [
          {
            id: 'actions',
            header: t('columns.actions'),
            isHeaderHidden: true,
            align: 'right' as const,
            cell: (schedule: DoctorSchedule) => (
              <Group gap="xs" justify="flex-end" wrap="nowrap">
                <Button
                  size="xs"
                  color={isDeletion ? 'red' : 'teal'}
                  variant="light"
                  loading={approve.isPending && approve.variables.ids.includes(schedule.id)}
                  onClick={() => {
                    approve.mutate({ ids: [schedule.id], decision: 'APPROVE' });
                  }}
                >
                  {isDeletion ? t('approval.approveDeletion') : t('approval.approve')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setToReject([schedule.id]);
                  }}
                >
                  {isDeletion ? t('approval.keep') : t('approval.reject')}
                </Button>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="lg" maw={1400}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('approval.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('approval.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={tab}
        onChange={(value) => {
          if (!isTab(value)) return;
          setSearchParams(value === 'NEW' ? {} : { tab: value }, { replace: true });
          setSelected(new Set());
          paged.update({});
        }}
      >
        <Tabs.List>
          {TABS.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`approval.tabs.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group align="flex-end" justify="space-between">
        <ListSearchField
          list={paged}
          label={t('approval.search')}
          placeholder={t('approval.searchPlaceholder')}
          width={340}
        />
        {decidable && rows.length > 0 ? (
          <Paper withBorder radius="md" px="md" py="xs">
            <Group gap="md">
              <Checkbox
                label={t('approval.selectAll')}
                checked={selectedOnPage.length === rows.length}
                indeterminate={selectedOnPage.length > 0 && selectedOnPage.length < rows.length}
                onChange={(event) => {
                  setSelected(event.currentTarget.checked ? new Set(rows.map((row) => row.id)) : new Set());
                }}
              />
              <Text fz="sm" c="dimmed" data-testid="selected-count">
                {t('approval.selected', { count: selectedOnPage.length })}
              </Text>
              <Button
                size="sm"
                color={isDeletion ? 'red' : 'teal'}
                disabled={selectedOnPage.length === 0}
                loading={approve.isPending && approve.variables.ids.length > 1}
                onClick={() => {
                  approve.mutate({ ids: selectedOnPage, decision: 'APPROVE' });
                }}
              >
                {isDeletion ? t('approval.approveSelectedDeletion') : t('approval.approveSelected')}
              </Button>
              <Button
                size="sm"
                variant="default"
                disabled={selectedOnPage.length === 0}
                onClick={() => {
                  setToReject(selectedOnPage);
                }}
              >
                {isDeletion ? t('approval.keepSelected') : t('approval.rejectSelected')}
              </Button>
            </Group>
          </Paper>
        ) : null}
      </Group>
      {approve.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageFor(approve.error))}
        </Alert>
      ) : null}
      <DataTable
        columns={columns}
        query={schedules}
        list={paged}
        label={t('approval.tableLabel')}
        testId="schedule-approval-table"
        rowTestId="schedule-row"
        isFiltered={debouncedSearch !== ''}
        texts={{
          loadFailed: t('approval.loadFailed'),
          emptyTitle: t('approval.emptyTitle'),
          emptyHint: t('approval.empty'),
          noMatchTitle: t('approval.noMatchTitle'),
          noMatchHint: t('approval.noMatch', { search: debouncedSearch }),
        }}
        minWidth={1000}
      />
      <ReasonDialog
        ids={toReject}
        tab={tab}
        onClose={() => {
          setToReject(null);
        }}
        onDecided={afterDecision}
      />
    </Stack>
  );
}
