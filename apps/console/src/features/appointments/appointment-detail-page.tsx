import { useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Appointment, AppointmentTransition, AppointmentTransitionInput } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { areaPath } from '../shell/navigation';
import { usePermissions } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import {
  AppointmentStatusBadge,
  appointmentTime,
  PaidBadge,
  StartDistanceBadge,
  useNow,
} from './appointment-badges';
import { availableTransitions } from './appointment-actions';
import { APPOINTMENTS_QUERY_ROOT, appointmentQuery, transitionAppointment } from './appointments-api';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** The complete (diagnosis and advice) or cancel (reason) dialog; both texts are required. */
function TransitionDialog({
  appointment,
  action,
  onClose,
}: {
  appointment: Appointment;
  action: 'complete' | 'cancel' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['schedules', 'common']);
  const queryClient = useQueryClient();
  const [diagnosis, setDiagnosis] = useState('');
  const [advice, setAdvice] = useState('');
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());
  const send = useMutation({
    mutationFn: (input: AppointmentTransitionInput) => transitionAppointment(appointment.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (_saved, input) => {
      notifySuccess(t(`appointments.done.${input.action}`));
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_QUERY_ROOT });
      close();
    },
  });
  function close() {
    send.reset();
    setDiagnosis('');
    setAdvice('');
    setReason('');
    setMissing(new Set());
    onClose();
  }
  const isComplete = action === 'complete';
  const requiredError = (name: string) => (missing.has(name) ? t('common:form.required') : undefined);
  const drop = (name: string) => {
    setMissing((current) => new Set([...current].filter((item) => item !== name)));
  };
  return (
    <Modal
      opened={action !== null}
      onClose={close}
      title={isComplete ? t('appointments.completeDialog.title') : t('appointments.cancelDialog.title')}
      size={isComplete ? 'lg' : 'md'}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (action === null || send.isPending) return;
          const empty = (isComplete ? [['diagnosis', diagnosis], ['advice', advice]] : [['reason', reason]])
            .filter(([, text]) => text?.trim() === '')
            .map(([name]) => name ?? '');
          if (empty.length > 0) {
            setMissing(new Set(empty));
            return;
          }
          send.mutate(
            isComplete
              ? { action, diagnosis: diagnosis.trim(), advice: advice.trim() }
              : { action, reason: reason.trim() },
          );
        }}
      >
        <Stack gap="md">
          <Text fz="sm">
            {isComplete ? t('appointments.completeDialog.text') : t('appointments.cancelDialog.text')}
          </Text>
          {send.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(send.error))}
            </Alert>
          ) : null}
          {isComplete ? (
            <>
              <Textarea
                label={t('appointments.completeDialog.diagnosis')}
                value={diagnosis}
                onChange={(event) => {
                  setDiagnosis(event.currentTarget.value);
                  drop('diagnosis');
                }}
                error={requiredError('diagnosis')}
                autosize
                minRows={3}
                maxLength={2000}
                withAsterisk
                data-autofocus
              />
              <Textarea
                label={t('appointments.completeDialog.advice')}
                value={advice}
                onChange={(event) => {
                  setAdvice(event.currentTarget.value);
                  drop('advice');
                }}
                error={requiredError('advice')}
                autosize
                minRows={3}
                maxLength={2000}
                withAsterisk
              />
            </>
          ) : (
            <Textarea
              label={t('appointments.cancelDialog.reason')}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                drop('reason');
              }}
              error={requiredError('reason')}
              autosize
              minRows={3}
              maxLength={500}
              withAsterisk
              data-autofocus
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {isComplete ? t('common:actions.cancel') : t('appointments.cancelDialog.keep')}
            </Button>
            <Button type="submit" color={isComplete ? 'teal' : 'red'} loading={send.isPending}>
              {isComplete ? t('appointments.completeDialog.submit') : t('appointments.cancelDialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

const ACTION_COLORS: Record<AppointmentTransition, string> = {
  checkIn: 'violet',
  start: 'teal',
  hold: 'yellow',
  complete: 'teal',
  cancel: 'red',
};

function AppointmentDetail({ appointment }: { appointment: Appointment }) {
  const { t } = useTranslation(['schedules', 'common']);
  const session = useSession();
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const now = useNow();
  const [dialog, setDialog] = useState<'complete' | 'cancel' | null>(null);
  const step = useMutation({
    mutationFn: (action: 'checkIn' | 'start' | 'hold') =>
      transitionAppointment(appointment.id, { action }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (_saved, action) => {
      notifySuccess(t(`appointments.done.${action}`));
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_QUERY_ROOT });
    },
  });
  const actions = availableTransitions(appointment, session.user.userId, can);
  const isOwnDoctor = appointment.doctor.id === session.user.userId;
  const waitsForDoctor =
    !isOwnDoctor && (['UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING'] as const).some(
      (status) => status === appointment.status,
    );
  const isUpcoming = appointment.status === 'UPCOMING';
  const isOpenStatus = (['UPCOMING', 'WAITING_FOR_DOCTOR', 'EXAMINING', 'PENDING'] as const).some(
    (status) => status === appointment.status,
  );

  return (
    <Stack gap="lg" maw={980}>
      <Anchor component={Link} to={areaPath(session.area, 'appointments')} fz="sm">
        ← {t('appointments.detail.back')}
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={6}>
          <Title order={1} fz={26}>
            {appointment.patient.fullName}
          </Title>
          <Group gap="sm">
            <AppointmentStatusBadge status={appointment.status} />
            <StartDistanceBadge appointment={appointment} now={now} />
          </Group>
        </Stack>
        <Group gap="sm">
          {/* An online appointment's doctor meets the patient in its video room. */}
          {appointment.place === 'ONLINE' && isOwnDoctor && isOpenStatus ? (
            <Button component={Link} to={areaPath(session.area, `appointments/${appointment.id}/video`)} color="teal">
              {t('video.joinCall')}
            </Button>
          ) : null}
          {/* The sheet's code checks the patient in while the appointment still waits for it. */}
          {appointment.status === 'UPCOMING' || appointment.status === 'WAITING_FOR_DOCTOR' ? (
            <Button
              component={Link}
              to={areaPath(session.area, `appointments/${appointment.id}/print`)}
              variant="default"
            >
              {t('appointments.detail.print')}
            </Button>
          ) : null}
          {isUpcoming && can('appointment.update') ? (
            <Button
              component={Link}
              to={areaPath(session.area, `appointments/${appointment.id}/edit`)}
              variant="default"
            >
              {t('appointments.detail.edit')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {actions.length > 0 ? (
        <Group gap="sm" data-testid="appointment-actions">
          {actions.map((action) => (
            <Button
              key={action}
              color={ACTION_COLORS[action]}
              variant={action === 'cancel' ? 'light' : 'filled'}
              loading={step.isPending && step.variables === action}
              onClick={() => {
                if (action === 'complete' || action === 'cancel') setDialog(action);
                else {
                  step.reset();
                  step.mutate(action);
                }
              }}
            >
              {t(`appointments.actions.${action}`)}
            </Button>
          ))}
        </Group>
      ) : null}
      {waitsForDoctor ? (
        <Text fz="sm" c="dimmed">
          {t('appointments.detail.doctorOnly')}
        </Text>
      ) : null}
      {step.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageFor(step.error))}
        </Alert>
      ) : null}
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" verticalSpacing="lg">
          <Field label={t('appointments.detail.patient')}>
            <Anchor component={Link} to={areaPath(session.area, `patients/${appointment.patient.id}`)} fz="sm">
              {appointment.patient.fullName}
            </Anchor>{' '}
            <Text span fz="xs" c="dimmed" ff="monospace">
              {appointment.patient.patientCode}
            </Text>
          </Field>
          <Field label={t('appointments.detail.doctor')}>{appointment.doctor.fullName}</Field>
          <Field label={t('appointments.detail.time')}>
            <span data-testid="appointment-time">{appointmentTime(appointment)}</span>
          </Field>
          <Field label={t('appointments.detail.place')}>{t(`appointments.place.${appointment.place}`)}</Field>
          <Field label={t('appointments.detail.payment')}>
            <PaidBadge paid={appointment.paid} />
          </Field>
          <Field label={t('appointments.detail.reason')}>{appointment.reason}</Field>
          {appointment.note ? <Field label={t('appointments.detail.note')}>{appointment.note}</Field> : null}
        </SimpleGrid>
      </Paper>
      {appointment.diagnosis !== null || appointment.advice !== null ? (
        <Paper withBorder radius="md" p="lg" data-testid="appointment-outcome">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Field label={t('appointments.detail.diagnosis')}>{appointment.diagnosis ?? '—'}</Field>
            <Field label={t('appointments.detail.advice')}>{appointment.advice ?? '—'}</Field>
          </SimpleGrid>
        </Paper>
      ) : null}
      {appointment.cancelReason !== null ? (
        <Alert color="red" variant="light" title={t('appointments.detail.cancelReason')}>
          {appointment.cancelReason}
        </Alert>
      ) : null}
      <Stack gap={4}>
        <Title order={2} fz={16}>
          {t('appointments.detail.history')}
        </Title>
        <Text fz="sm" c="dimmed">
          {appointment.createdBy === null
            ? t('appointments.detail.createdAt', { at: formatDateTime(appointment.createdAt) })
            : t('appointments.detail.createdBy', {
                name: appointment.createdBy.fullName,
                at: formatDateTime(appointment.createdAt),
              })}
        </Text>
        {appointment.updatedAt !== appointment.createdAt ? (
          <Text fz="sm" c="dimmed">
            {t('appointments.detail.updatedAt', { at: formatDateTime(appointment.updatedAt) })}
          </Text>
        ) : null}
      </Stack>
      <TransitionDialog
        appointment={appointment}
        action={dialog}
        onClose={() => {
          setDialog(null);
        }}
      />
    </Stack>
  );
}

/** /<area>/appointments/:id (spec §2 appointment detail, §4 states): fields, state, history, actions. */
export function AppointmentDetailPage() {
  const { t } = useTranslation('schedules');
  usePageTitle(t('appointments.detail.title'));
  const { appointmentId = '' } = useParams();
  const appointment = useQuery(appointmentQuery(appointmentId));
  if (appointment.isPending) return <LoadingState />;
  if (appointment.isError)
    return (
      <ErrorState
        error={appointment.error}
        title={t('appointments.detail.loadFailed')}
        onRetry={() => void appointment.refetch()}
      />
    );
  return <AppointmentDetail appointment={appointment.data} />;
}
