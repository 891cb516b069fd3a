import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DOCTOR_REQUEST_KINDS, type DoctorRequest } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate, formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useOrgReach } from '../levels/use-org-reach';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { TwoLineCell } from '../shell/data-table-cells';
import { usePagedList } from '../shell/paged-list';
import { DecisionDialog } from './decision-dialog';
import {
  decideDoctorRequest,
  doctorRequestListQuery,
  refreshDoctors,
  type DoctorRequestFilter,
} from './doctors-api';

/** Approve and Reject of one request row, named after whom the request is about. */
export function DecisionButtons({
  name,
  onApprove,
  onReject,
}: {
  name: string;
  onApprove: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation('doctors');
  return (
    <>
      <Button size="xs" color="teal" onClick={onApprove} aria-label={t('requests.approveLabel', { name })}>
        {t('decision.approve.confirm')}
      </Button>
      <Button
        size="xs"
        variant="light"
        color="red"
        onClick={onReject}
        aria-label={t('requests.rejectLabel', { name })}
      >
        {t('decision.reject.confirm')}
      </Button>
    </>
  );
}

/** Approving a registration of a doctor without a health center asks which center they join. */
function ApproveDialog({ request, onClose }: { request: DoctorRequest | null; onClose: () => void }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { centers } = useOrgReach();
  const [centerId, setCenterId] = useState<string | null>(null);
  const [centerError, setCenterError] = useState<string | undefined>(undefined);
  const needsCenter = request?.kind === 'REGISTRATION' && request.doctor.center === null;
  const approve = useMutation({
    mutationFn: (input: { id: string; centerId?: string }) =>
      decideDoctorRequest(
        input.id,
        'approve',
        input.centerId === undefined ? {} : { centerId: input.centerId },
      ),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('doctorRequests.approved', { name: saved.doctor.fullName }));
      refreshDoctors(queryClient);
      setCenterId(null);
      onClose();
    },
  });
  const close = () => {
    approve.reset();
    setCenterId(null);
    setCenterError(undefined);
    onClose();
  };
  return (
    <Modal opened={request !== null} onClose={close} title={t('doctorRequests.approveTitle')} centered>
      {request === null ? null : (
        <Stack gap="md">
          <Text>{t(`doctorRequests.approveText.${request.kind}`, { name: request.doctor.fullName })}</Text>
          {approve.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(approve.error))}
            </Alert>
          ) : null}
          {needsCenter ? (
            <Select
              label={t('doctorRequests.center')}
              data={centers.map((center) => ({ value: center.id, label: center.name }))}
              value={centerId}
              onChange={(value) => {
                setCenterId(value);
                setCenterError(undefined);
              }}
              error={centerError}
              searchable
              withAsterisk
              data-autofocus
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {tc('actions.cancel')}
            </Button>
            <Button
              color="teal"
              loading={approve.isPending}
              onClick={() => {
                if (needsCenter && centerId === null) {
                  setCenterError(t('doctorRequests.centerRequired'));
                  return;
                }
                approve.mutate({ id: request.id, ...(centerId === null ? {} : { centerId }) });
              }}
            >
              {t('decision.approve.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Doctor registrations and deactivation requests waiting for an admin (spec §4, §5). */
export function DoctorRequestsTable() {
  const { t } = useTranslation('doctors');
  const queryClient = useQueryClient();
  const paged = usePagedList<
    'requested',
    Omit<DoctorRequestFilter, 'search'> & { sortField: 'requested'; sortType: 'asc' | 'desc' }
  >({
    page: 0,
    size: 10,
    sortField: 'requested',
    sortType: 'asc',
    kind: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const requests = useQuery(
    doctorRequestListQuery({
      page: filter.page,
      size: filter.size,
      kind: filter.kind,
      search: debouncedSearch,
    }),
  );
  const [approving, setApproving] = useState<DoctorRequest | null>(null);
  const [rejecting, setRejecting] = useState<DoctorRequest | null>(null);
  const reject = useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      decideDoctorRequest(id, 'reject', { reason }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('doctorRequests.rejected', { name: saved.doctor.fullName }));
      refreshDoctors(queryClient);
      setRejecting(null);
    },
  });
  const columns: Column<DoctorRequest, 'requested'>[] = [
    {
      id: 'doctor',
      header: t('requests.doctor'),
      cell: (request) => (
        <TwoLineCell
          title={request.doctor.fullName}
          detail={request.doctor.email ?? request.doctor.phone ?? ''}
        />
      ),
    },
    {
      id: 'kind',
      header: t('requests.kind'),
      cell: (request) => (
        <>
          <Text fz="sm">{t(`doctorRequests.kind.${request.kind}`)}</Text>
          {request.kind === 'DEACTIVATION' ? (
            <Text fz="xs" c="dimmed">
              {request.until === null
                ? t('doctorRequests.indefinitely')
                : t('doctorRequests.until', { date: formatDate(request.until) })}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      id: 'center',
      header: t('list.center'),
      cell: (request) => request.doctor.center?.name ?? <Text c="dimmed">—</Text>,
    },
    {
      id: 'requested',
      header: t('requests.created'),
      cell: (request) => formatDateTime(request.requestedAt),
    },
    {
      id: 'actions',
      header: t('requests.actions'),
      cell: (request) => (
        <Group gap={6} wrap="nowrap">
          <DecisionButtons
            name={request.doctor.fullName}
            onApprove={() => {
              setApproving(request);
            }}
            onReject={() => {
              reject.reset();
              setRejecting(request);
            }}
          />
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          width={280}
        />
        <ValueFilter
          values={DOCTOR_REQUEST_KINDS}
          labelOf={(kind) => t(`doctorRequests.kind.${kind}`)}
          value={filter.kind}
          onChange={(kind) => {
            update({ kind });
          }}
          label={t('requests.kindFilter')}
          placeholder={t('list.any')}
          width={200}
        />
      </Group>
      <DataTable
        columns={columns}
        query={requests}
        list={paged}
        label={t('requests.tabs.doctors')}
        testId="doctor-requests"
        isFiltered={debouncedSearch !== '' || filter.kind !== null}
        texts={{
          loadFailed: t('requests.loadFailed'),
          emptyTitle: t('doctorRequests.empty'),
          noMatchTitle: t('requests.noMatchTitle'),
          noMatchHint: t('requests.noMatchHint'),
        }}
      />
      <ApproveDialog
        request={approving}
        onClose={() => {
          setApproving(null);
        }}
      />
      <DecisionDialog
        decision={rejecting === null ? null : 'reject'}
        subject={rejecting?.doctor.fullName ?? ''}
        isPending={reject.isPending}
        error={reject.error}
        onConfirm={(reason) => {
          if (rejecting) reject.mutate({ id: rejecting.id, reason });
        }}
        onClose={() => {
          setRejecting(null);
        }}
      />
    </Stack>
  );
}
