import { useState } from 'react';
import { Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CARE_REQUEST_KINDS,
  CARE_REQUEST_STATUSES,
  canTransition,
  type CareRequest,
  type CareRequestStatus,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ValueFilter } from '../shell/data-table-filters';
import { TwoLineCell } from '../shell/data-table-cells';
import { usePagedList } from '../shell/paged-list';
import { usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { DecisionDialog, type Decision } from './decision-dialog';
import { DeactivatedDoctorsTable } from './deactivated-doctors-table';
import { DecisionButtons, DoctorRequestsTable } from './doctor-requests-table';
import { decideRequest, refreshDoctors, requestListQuery, type RequestFilter } from './doctors-api';

const STATUS_COLOR: Record<CareRequestStatus, string> = {
  WAITING: 'yellow',
  APPROVED: 'teal',
  REJECTED: 'red',
  CANCELED: 'gray',
};

export function RequestStatusBadge({ status }: { status: CareRequestStatus }) {
  const { t } = useTranslation('doctors');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" tt="none">
      {t(`requestStatus.${status}`)}
    </Badge>
  );
}

/** One box of requests (sent or received) with its filters and the actions the box allows. */
function RequestBox({ box }: { box: RequestFilter['box'] }) {
  const { t } = useTranslation('doctors');
  const queryClient = useQueryClient();
  const paged = usePagedList<
    'created',
    Omit<RequestFilter, 'box'> & { sortField: 'created'; sortType: 'desc' | 'asc' }
  >({
    page: 0,
    size: 10,
    sortField: 'created',
    sortType: 'desc',
    status: box === 'received' ? 'WAITING' : null,
    kind: null,
  });
  const { filter, update } = paged;
  const requests = useQuery(
    requestListQuery({ page: filter.page, size: filter.size, box, status: filter.status, kind: filter.kind }),
  );
  const [pending, setPending] = useState<{ request: CareRequest; decision: Decision } | null>(null);
  const decide = useMutation({
    mutationFn: ({
      request,
      decision,
      reason,
    }: {
      request: CareRequest;
      decision: Decision;
      reason: string;
    }) => decideRequest(request.id, decision, reason),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved, { decision }) => {
      notifySuccess(t(`decision.${decision}.done`, { subject: saved.patient.fullName }));
      refreshDoctors(queryClient);
      setPending(null);
    },
  });
  const open = (request: CareRequest, decision: Decision) => {
    decide.reset();
    setPending({ request, decision });
  };
  const isFiltered = filter.status !== null || filter.kind !== null;
  const columns: Column<CareRequest, 'created'>[] = [
    {
      id: 'kind',
      header: t('requests.kind'),
      cell: (request) => (
        <>
          <Text fz="sm">{t(`requestKind.${request.kind}`)}</Text>
          {box === 'received' ? (
            <Text fz="xs" c="dimmed">
              {t('requests.from', { name: request.requester.fullName })}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      id: 'patient',
      header: t('requests.patient'),
      cell: (request) => (
        <TwoLineCell title={request.patient.fullName} detail={request.patient.patientCode} />
      ),
    },
    { id: 'doctor', header: t('requests.doctor'), cell: (request) => request.doctor.fullName },
    { id: 'relation', header: t('requests.relation'), cell: (request) => t(`relation.${request.relation}`) },
    {
      id: 'status',
      header: t('requests.status'),
      cell: (request) => (
        <>
          <RequestStatusBadge status={request.status} />
          {request.rejectReason === null ? null : (
            <Text fz="xs" c="dimmed" mt={2}>
              {request.rejectReason}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'created',
      header: t('requests.created'),
      cell: (request) => (
        <>
          <Text fz="sm">{formatDateTime(request.createdAt)}</Text>
          {request.message === '' ? null : (
            <Text fz="xs" c="dimmed" lineClamp={2} maw={260}>
              {request.message}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'actions',
      header: t('requests.actions'),
      cell: (request) => (
        <Group gap={6} wrap="nowrap">
          {box === 'received' && canTransition('approve', request.status) ? (
            <DecisionButtons
              name={request.patient.fullName}
              onApprove={() => {
                open(request, 'approve');
              }}
              onReject={() => {
                open(request, 'reject');
              }}
            />
          ) : null}
          {box === 'sent' && canTransition('cancel', request.status) ? (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => {
                open(request, 'cancel');
              }}
              aria-label={t('requests.cancelLabel', { name: request.patient.fullName })}
            >
              {t('decision.cancel.confirm')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ValueFilter
          values={CARE_REQUEST_STATUSES}
          labelOf={(status) => t(`requestStatus.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('requests.statusFilter')}
          placeholder={t('list.any')}
          width={180}
        />
        <ValueFilter
          values={CARE_REQUEST_KINDS}
          labelOf={(kind) => t(`requestKind.${kind}`)}
          value={filter.kind}
          onChange={(kind) => {
            update({ kind });
          }}
          label={t('requests.kindFilter')}
          placeholder={t('list.any')}
          width={220}
        />
      </Group>
      <DataTable
        columns={columns}
        query={requests}
        list={paged}
        label={t(`requests.tabs.${box}`)}
        testId={`requests-${box}`}
        rowTestId="request-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('requests.loadFailed'),
          emptyTitle: t(`requests.empty.${box}`),
          noMatchTitle: t('requests.noMatchTitle'),
          noMatchHint: t('requests.noMatchHint'),
        }}
      />
      <DecisionDialog
        decision={pending?.decision ?? null}
        subject={
          pending === null ? '' : `${pending.request.patient.fullName} – ${pending.request.doctor.fullName}`
        }
        isPending={decide.isPending}
        error={decide.error}
        onConfirm={(reason) => {
          if (pending) decide.mutate({ ...pending, reason });
        }}
        onClose={() => {
          setPending(null);
        }}
      />
    </Stack>
  );
}

const TABS = ['received', 'sent', 'doctors', 'deactivated'] as const;
/** Tabs of admins who manage doctors. */
const ADMIN_TABS: readonly Tab[] = ['doctors', 'deactivated'];
type Tab = (typeof TABS)[number];

/** Patient requests (tabs sent and received, spec §2) and, for admins, doctor requests. */
export function RequestsPage() {
  const { t } = useTranslation('doctors');
  usePageTitle(t('requests.title'));
  const { can } = usePermissions();
  const tabs = TABS.filter((tab) => !ADMIN_TABS.includes(tab) || can('staff.update'));
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = tabs.find((candidate) => candidate === searchParams.get('tab')) ?? 'received';
  return (
    <Stack gap="lg" maw={1280}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('requests.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('requests.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={tab}
        onChange={(value) => {
          setSearchParams(value === null || value === 'received' ? {} : { tab: value }, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List>
          {tabs.map((item) => (
            <Tabs.Tab key={item} value={item}>
              {t(`requests.tabs.${item}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="received" pt="lg">
          <RequestBox box="received" />
        </Tabs.Panel>
        <Tabs.Panel value="sent" pt="lg">
          <RequestBox box="sent" />
        </Tabs.Panel>
        {tabs.includes('doctors') ? (
          <Tabs.Panel value="doctors" pt="lg">
            <DoctorRequestsTable />
          </Tabs.Panel>
        ) : null}
        {tabs.includes('deactivated') ? (
          <Tabs.Panel value="deactivated" pt="lg">
            <DeactivatedDoctorsTable />
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </Stack>
  );
}
