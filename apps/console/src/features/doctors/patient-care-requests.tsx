import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { careRequestCreateSchema, type CareRequest } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { DoctorPickerFields, useDoctorPicker } from './doctor-picker-fields';
import { decideRequest, patientRequestsQuery, refreshDoctors, sendRequest } from './doctors-api';
import { RequestStatusBadge } from './requests-page';

const PAGE_SIZE = 10;
const MESSAGE_MAX = 500;

/** Send a care request to a doctor on the patient's behalf: doctor search, role and an optional message. */
function SendRequestDialog({
  patientId,
  opened,
  onClose,
}: {
  patientId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const picker = useDoctorPicker(opened);
  const [message, setMessage] = useState('');
  const send = useMutation({
    mutationFn: sendRequest,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('careRequests.sent'));
      refreshDoctors(queryClient);
      close();
    },
  });
  function close() {
    send.reset();
    picker.reset();
    setMessage('');
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={t('careRequests.sendTitle')} centered>
      <form
        noValidate
        aria-label={t('careRequests.sendTitle')}
        onSubmit={(event) => {
          event.preventDefault();
          const doctorId = picker.requireDoctor();
          if (doctorId === null) return;
          const parsed = careRequestCreateSchema.safeParse({
            kind: 'PATIENT_REQUEST',
            patientId,
            doctorId,
            relation: picker.relation,
            message,
          });
          if (parsed.success && !send.isPending) send.mutate(parsed.data);
        }}
      >
        <Stack gap="md">
          {send.isError ? (
            <Alert color="red" variant="light" role="alert" data-testid="send-request-error">
              {messageText(errorMessageFor(send.error))}
            </Alert>
          ) : null}
          <DoctorPickerFields
            picker={picker}
            // A request goes only to a doctor who can answer it.
            toOption={(doctor) =>
              doctor.status === 'ACTIVE' ? { value: doctor.id, label: doctor.fullName } : null
            }
            relationLabelId="care-request-relation-label"
          />
          <Textarea
            label={t('careRequests.message')}
            description={t('careRequests.messageHint')}
            value={message}
            onChange={(event) => {
              setMessage(event.currentTarget.value);
            }}
            autosize
            minRows={2}
            maxLength={MESSAGE_MAX}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending}>
              {t('careRequests.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The requests between the patient and doctors (both directions) with their state; a permitted
 * user sends a request to a doctor, and the sender cancels a waiting one.
 */
export function PatientCareRequests({ patientId }: { patientId: string }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const [isSending, setIsSending] = useState(false);
  const [canceling, setCanceling] = useState<CareRequest | null>(null);
  const requests = useQuery(patientRequestsQuery(patientId, page, PAGE_SIZE));
  const cancel = useMutation({
    mutationFn: (id: string) => decideRequest(id, 'cancel'),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('careRequests.canceled'));
      refreshDoctors(queryClient);
      setCanceling(null);
    },
  });
  const total = requests.data?.total ?? 0;
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {t('careRequests.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t('careRequests.subtitle')}
            </Text>
          </Stack>
          <Can permission="user.assign">
            <Button
              variant="light"
              onClick={() => {
                setIsSending(true);
              }}
            >
              {t('careRequests.send')}
            </Button>
          </Can>
        </Group>
        {requests.isPending ? <LoadingState /> : null}
        {requests.isError ? (
          <ErrorState
            error={requests.error}
            title={t('careRequests.loadFailed')}
            onRetry={() => void requests.refetch()}
          />
        ) : null}
        {requests.isSuccess && requests.data.items.length === 0 ? (
          <EmptyList title={t('careRequests.empty')} />
        ) : null}
        {requests.isSuccess && requests.data.items.length > 0 ? (
          <Table verticalSpacing="sm" aria-label={t('careRequests.title')} data-testid="care-requests-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('careTeam.doctor')}</Table.Th>
                <Table.Th>{t('careTeam.relation')}</Table.Th>
                <Table.Th>{t('careRequests.direction')}</Table.Th>
                <Table.Th>{t('careRequests.state')}</Table.Th>
                <Table.Th>{t('careRequests.sentAt')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {requests.data.items.map((request) => (
                <Table.Tr key={request.id}>
                  <Table.Td>
                    <Text fz="sm" fw={600}>
                      {request.doctor.fullName}
                    </Text>
                    {request.message === '' ? null : (
                      <Text fz="xs" c="dimmed" lineClamp={2}>
                        {request.message}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{t(`relation.${request.relation}`)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{t(`careRequests.kind.${request.kind}`)}</Text>
                    <Text fz="xs" c="dimmed">
                      {t('careTeam.by', { name: request.requester.fullName })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <RequestStatusBadge status={request.status} />
                    {request.rejectReason ? (
                      <Text fz="xs" c="dimmed">
                        {request.rejectReason}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm">{formatDate(request.createdAt)}</Text>
                  </Table.Td>
                  <Table.Td>
                    {request.status === 'WAITING' && request.requester.id === session.user.userId ? (
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => {
                          cancel.reset();
                          setCanceling(request);
                        }}
                        aria-label={t('careRequests.cancelLabel', { name: request.doctor.fullName })}
                      >
                        {t('careRequests.cancel')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
        {total > PAGE_SIZE ? (
          <TablePager page={page} size={PAGE_SIZE} total={total} onChange={setPage} />
        ) : null}
      </Stack>
      <SendRequestDialog
        patientId={patientId}
        opened={isSending}
        onClose={() => {
          setIsSending(false);
        }}
      />
      <ConfirmDialog
        isOpen={canceling !== null}
        title={t('careRequests.cancelTitle')}
        text={t('careRequests.cancelText', { name: canceling?.doctor.fullName ?? '' })}
        confirmLabel={t('careRequests.cancel')}
        backLabel={tc('actions.back')}
        confirmColor="red"
        isPending={cancel.isPending}
        error={cancel.error}
        onConfirm={() => {
          if (canceling) cancel.mutate(canceling.id);
        }}
        onClose={() => {
          setCanceling(null);
        }}
      />
    </Paper>
  );
}
