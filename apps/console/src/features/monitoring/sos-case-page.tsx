import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  SOS_CASE_ACTIONS,
  SOS_CASE_STEP_TYPES,
  type SosCaseAction,
  type SosCaseDetail,
  type SosCaseStep,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { HistoryTimeline } from './history-timeline';
import { Link, useParams } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { FavouriteStar, InvitationBadge } from '../contacts/follower-badges';
import { PatientStatusBadge } from '../patients/patient-status-badge';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePermissions } from '../shell/permissions';
import { VitalAgeLabel } from '../health/vital-age-label';
import { usePageTitle } from '../shell/use-page-title';
import { BackLink } from './back-link';
import { KpiBadge, SosStatusBadge } from './badges';
import { changeSosCase, logSosStep, refreshMonitoring, sosCaseDetailQuery } from './monitoring-api';
import { ReasonDialog } from './reason-dialog';
import { SosRecordings } from './sos-recordings';

/** History entries written by the system: their note is the SOS source (a code). */
const SYSTEM_KINDS = new Set(['OPENED', 'SOS_REPEATED']);
/** The message the patient chose in the app: its note is the choice's code. */
const noteOf = (kind: string, note: string, t: (key: string, options: { defaultValue: string }) => string) =>
  SYSTEM_KINDS.has(kind)
    ? t(`source.${note}`, { defaultValue: note })
    : kind === 'PATIENT_MESSAGE'
      ? t(`sosMessage.${note}`, { defaultValue: note })
      : note;

/**
 * Patient in SOS (spec §2, §3 SOS case): vitals at SOS time with their age, location, the patient
 * and followers with call and SMS buttons, the action history, and the actions the case's state
 * allows (with reasons). Without health.sos (the patient's doctor) the case is read-only.
 */
export function SosCasePage() {
  const { t } = useTranslation('monitoring');
  const { caseId = '' } = useParams();
  const detail = useQuery(sosCaseDetailQuery(caseId));
  usePageTitle(
    detail.data ? t('sos.detail.title', { name: detail.data.patient.fullName }) : t('sos.list.title'),
  );
  if (detail.isPending) return <LoadingState />;
  if (detail.isError)
    return (
      <ErrorState
        error={detail.error}
        title={t('sos.detail.loadError')}
        onRetry={() => void detail.refetch()}
      />
    );
  return <SosCaseView sosCase={detail.data} />;
}

function SosCaseView({ sosCase }: { sosCase: SosCaseDetail }) {
  const { t } = useTranslation('monitoring');
  const queryClient = useQueryClient();
  const [action, setAction] = useState<SosCaseAction | null>(null);
  const change = useMutation({
    mutationFn: (input: { action: SosCaseAction; reason: string }) =>
      changeSosCase(sosCase.id, input.action, input.reason),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('sos.detail.done', { status: t(`sosStatus.${saved.status}`) }));
      queryClient.setQueryData(sosCaseDetailQuery(sosCase.id).queryKey, saved);
      refreshMonitoring(queryClient);
      setAction(null);
    },
  });
  const step = useMutation({
    mutationFn: (input: SosCaseStep) => logSosStep(sosCase.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('sos.detail.stepLogged'));
      queryClient.setQueryData(sosCaseDetailQuery(sosCase.id).queryKey, saved);
      refreshMonitoring(queryClient);
    },
  });
  const isClosed = sosCase.status === 'CLOSED';
  const { can } = usePermissions();
  const canHandle = can('health.sos');
  const patientPhone = sosCase.patient.phone;

  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <BackLink listLabel={t('sos.detail.back')} patientId={sosCase.patient.id} />
          <Title order={1} fz={26}>
            {t('sos.detail.title', { name: sosCase.patient.fullName })}
          </Title>
          <Group gap="xs">
            <SosStatusBadge status={sosCase.status} />
            <PatientStatusBadge status={sosCase.patient.status} />
            <KpiBadge failed={sosCase.kpiFailed} />
            <Text fz="sm" c="dimmed">
              {t('sos.detail.opened', { at: formatDateTime(sosCase.openedAt) })} ·{' '}
              {t(`source.${sosCase.source}`)}
            </Text>
          </Group>
        </Stack>
        {canHandle ? (
          <Group gap="sm" data-testid="sos-actions">
            {sosCase.allowedActions.map((candidate) => (
              <Button
                key={candidate}
                variant={candidate === 'close' ? 'default' : 'filled'}
                color={candidate === 'accept' ? 'red' : undefined}
                onClick={() => {
                  change.reset();
                  setAction(candidate);
                }}
              >
                {t(`sosAction.${candidate}`)}
              </Button>
            ))}
          </Group>
        ) : null}
      </Group>

      {canHandle ? null : (
        <Alert color="blue" variant="light" data-testid="sos-read-only">
          {t('sos.detail.readOnly')}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t('sos.detail.patient')}
          </Title>
          <Stack gap={4}>
            {can('user.view') ? (
              <Anchor component={Link} to={`../../patients/${sosCase.patient.id}`} relative="path" fw={600}>
                {sosCase.patient.fullName}
              </Anchor>
            ) : (
              <Text fw={600}>{sosCase.patient.fullName}</Text>
            )}
            <Text fz="sm" ff="monospace">
              {sosCase.patient.patientCode}
            </Text>
            <Text fz="sm">{patientPhone ?? t('sos.detail.noPhone')}</Text>
            {canHandle && patientPhone !== null ? (
              <Group gap={6} data-testid="patient-contact">
                <Button
                  size="xs"
                  disabled={isClosed}
                  loading={step.isPending && step.variables.type === 'CALL_PATIENT'}
                  onClick={() => {
                    step.mutate({ type: 'CALL_PATIENT', note: '' });
                  }}
                >
                  {t('sos.detail.callPatient')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={isClosed}
                  loading={step.isPending && step.variables.type === 'SMS_PATIENT'}
                  onClick={() => {
                    step.mutate({ type: 'SMS_PATIENT', note: '' });
                  }}
                >
                  {t('sos.detail.smsPatient')}
                </Button>
              </Group>
            ) : null}
            <Text fz="sm" c="dimmed">
              {sosCase.healthCenter?.name ?? ''}
            </Text>
            <Text fz="sm">
              {t('sos.detail.assignee')}: {sosCase.assignee?.fullName ?? t('sos.unassigned')}
            </Text>
            <Text fz="sm">
              {t('sos.detail.kpiDue')}: {formatDateTime(sosCase.kpiDueAt)}
            </Text>
            {sosCase.ticketId === null ? null : (
              <Anchor component={Link} to={`../../tickets/${sosCase.ticketId}`} relative="path" fz="sm">
                {t('sos.detail.openTicket')}
              </Anchor>
            )}
            {sosCase.closeReason === null ? null : (
              <Text fz="sm">
                {t('sos.detail.closeReason')}: {sosCase.closeReason}
              </Text>
            )}
          </Stack>
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t('sos.detail.vitals')}
          </Title>
          {sosCase.vitals.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {t('sos.detail.noVitals')}
            </Text>
          ) : (
            <Table aria-label={t('sos.detail.vitals')}>
              <Table.Tbody>
                {sosCase.vitals.map((vital) => (
                  <Table.Tr key={`${vital.measure}-${vital.measuredAt}`}>
                    <Table.Td>{t(`measure.${vital.measure}`, { defaultValue: vital.measure })}</Table.Td>
                    <Table.Td fw={600}>{vital.value}</Table.Td>
                    <Table.Td>
                      <VitalAgeLabel measuredAt={vital.measuredAt} fz="sm" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t('sos.detail.location')}
          </Title>
          {sosCase.location === null ? (
            <Text fz="sm" c="dimmed">
              {t('sos.detail.noLocation')}
            </Text>
          ) : (
            <Stack gap={4}>
              <Text fz="sm" ff="monospace">
                {sosCase.location.lat.toFixed(5)}, {sosCase.location.lng.toFixed(5)}
              </Text>
              <Anchor
                href={`https://www.openstreetmap.org/?mlat=${String(sosCase.location.lat)}&mlon=${String(sosCase.location.lng)}#map=17/${String(sosCase.location.lat)}/${String(sosCase.location.lng)}`}
                target="_blank"
                rel="noreferrer"
                fz="sm"
              >
                {t('sos.detail.openMap')}
              </Anchor>
            </Stack>
          )}
        </Card>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t('sos.detail.followers')}
          </Title>
          {sosCase.followers.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {t('sos.detail.noFollowers')}
            </Text>
          ) : (
            <Table aria-label={t('sos.detail.followers')} data-testid="followers-table">
              <Table.Tbody>
                {/* In the server's order (favourite first, then emergency): the order calls are placed. */}
                {sosCase.followers.map((follower) => (
                  <Table.Tr key={follower.id} data-testid="sos-follower">
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        <Text fw={600} fz="sm">
                          {follower.name}
                        </Text>
                        <FavouriteStar isFavourite={follower.favourite} />
                      </Group>
                      <Text fz="xs" c="dimmed">
                        {t(`relationship.${follower.relationship}`)} ·{' '}
                        {t(`contactType.${follower.contactType}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <InvitationBadge status={follower.invitationStatus} />
                    </Table.Td>
                    <Table.Td ff="monospace">{follower.phone}</Table.Td>
                    <Table.Td>
                      {canHandle ? (
                      <Group gap={6} justify="flex-end">
                        <Button
                          size="xs"
                          disabled={isClosed}
                          loading={step.isPending}
                          aria-label={t('sos.detail.callFollower', { name: follower.name })}
                          onClick={() => {
                            step.mutate({ type: 'CALL_FOLLOWER', note: '', contactId: follower.id });
                          }}
                        >
                          {t('sos.detail.call')}
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          disabled={isClosed}
                          aria-label={t('sos.detail.smsFollower', { name: follower.name })}
                          onClick={() => {
                            step.mutate({ type: 'SMS', note: '', contactId: follower.id });
                          }}
                        >
                          {t('sos.detail.sms')}
                        </Button>
                      </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        {canHandle ? (
          <Card withBorder radius="md">
            <Title order={2} fz="md" mb="sm">
              {t('sos.detail.logAction')}
            </Title>
            <StepForm
              disabled={isClosed}
              isPending={step.isPending}
              error={step.isError ? step.error : null}
              onSubmit={(input) => {
                step.mutate(input);
              }}
            />
          </Card>
        ) : null}
      </SimpleGrid>

      <SosRecordings sosCaseId={sosCase.id} />

      <HistoryTimeline
        title={t('sos.detail.history')}
        testId="sos-history"
        steps={sosCase.history.map((entry) => ({
          id: entry.id,
          title: t(`historyKind.${entry.kind}`, { defaultValue: entry.kind }),
          statusLabel: entry.toStatus === null ? null : t(`sosStatus.${entry.toStatus}`),
          at: entry.at,
          actor: entry.actor,
          // System entries and the patient's message keep a code as their note: shown translated.
          note: noteOf(entry.kind, entry.note, t),
        }))}
      />

      {action === null ? null : (
        <ReasonDialog
          key={action}
          opened
          title={t(`sosAction.${action}`)}
          needsReason={SOS_CASE_ACTIONS[action].needsReason}
          isPending={change.isPending}
          error={change.isError ? change.error : null}
          onClose={() => {
            setAction(null);
          }}
          onSubmit={(reason) => {
            change.mutate({ action, reason });
          }}
        />
      )}
    </Stack>
  );
}

/** Logs what the operator did: a call, an SMS, a dispatch, a note (spec §3 action taken). */
function StepForm({
  disabled,
  isPending,
  error,
  onSubmit,
}: {
  disabled: boolean;
  isPending: boolean;
  error: unknown;
  onSubmit: (step: SosCaseStep) => void;
}) {
  const { t } = useTranslation('monitoring');
  const [type, setType] = useState<SosCaseStep['type'] | null>(null);
  const [note, setNote] = useState('');
  const [isMissing, setMissing] = useState(false);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (type === null) {
          setMissing(true);
          return;
        }
        onSubmit({ type, note: note.trim() });
        setNote('');
      }}
    >
      <Stack gap="sm">
        <Select
          label={t('sos.detail.stepType')}
          placeholder={t('sos.detail.stepTypePlaceholder')}
          data={SOS_CASE_STEP_TYPES.filter(
            (candidate) => candidate !== 'CALL_FOLLOWER' && candidate !== 'SMS' && candidate !== 'SMS_PATIENT',
          ).map((candidate) => ({ value: candidate, label: t(`historyKind.${candidate}`) }))}
          value={type}
          onChange={(value) => {
            setType(SOS_CASE_STEP_TYPES.find((candidate) => candidate === value) ?? null);
            setMissing(false);
          }}
          error={isMissing ? t('reasonDialog.required') : undefined}
          withAsterisk
          disabled={disabled}
        />
        <Textarea
          label={t('sos.detail.note')}
          value={note}
          onChange={(event) => {
            setNote(event.currentTarget.value);
          }}
          autosize
          minRows={2}
          maxLength={1000}
          disabled={disabled}
        />
        {error === null ? null : (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(error))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={isPending} disabled={disabled}>
            {t('sos.detail.submitStep')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
