import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Rating,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  RATABLE_TICKET_STATUSES,
  TICKET_ACTIONS,
  type TicketAction,
  type TicketDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { HistoryTimeline } from './history-timeline';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { usePermissions } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { BackLink } from './back-link';
import { TicketStatusBadge } from './badges';
import { changeTicket, rateTicket, refreshMonitoring, ticketDetailQuery } from './monitoring-api';
import { ReasonDialog } from './reason-dialog';
import { assignLabel, ticketWording } from './ticket-wording';

/**
 * Ticket detail and history (spec §2, §3 Ticket): the actions the server offers this user in the
 * current state, current action, ratings; SOS wording only on SOS tickets (ticket-wording.ts).
 */
export function TicketDetailPage() {
  const { t } = useTranslation('monitoring');
  const { ticketId = '' } = useParams();
  const detail = useQuery(ticketDetailQuery(ticketId));
  usePageTitle(
    detail.data ? t('tickets.detail.title', { number: detail.data.number }) : t('tickets.list.title'),
  );
  if (detail.isPending) return <LoadingState />;
  if (detail.isError)
    return (
      <ErrorState
        error={detail.error}
        title={t('tickets.detail.loadError')}
        onRetry={() => void detail.refetch()}
      />
    );
  return <TicketView ticket={detail.data} />;
}

function TicketView({ ticket }: { ticket: TicketDetail }) {
  const { t } = useTranslation('monitoring');
  const queryClient = useQueryClient();
  const [action, setAction] = useState<TicketAction | null>(null);
  const [currentAction, setCurrentAction] = useState(ticket.currentAction);
  const saved = (next: TicketDetail) => {
    queryClient.setQueryData(ticketDetailQuery(ticket.id).queryKey, next);
    refreshMonitoring(queryClient);
  };
  const change = useMutation({
    mutationFn: (input: { action: TicketAction; reason: string }) =>
      changeTicket(ticket.id, input.action, {
        ...(input.reason === '' ? {} : { reason: input.reason }),
        ...(currentAction.trim() === ticket.currentAction ? {} : { currentAction: currentAction.trim() }),
      }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (next) => {
      notifySuccess(t('tickets.detail.done', { status: t(`ticketStatus.${next.status}`) }));
      saved(next);
      setAction(null);
    },
  });
  const rate = useMutation({
    mutationFn: (input: { kpiRating?: number; customerRating?: number }) => rateTicket(ticket.id, input),
    onSuccess: (next) => {
      notifySuccess(t('tickets.detail.ratingSaved'));
      saved(next);
    },
    onError: (error) => {
      notifyError(error);
    },
  });
  // A doctor reads the tickets of patients in their care; working on them is for health.sos.
  const { can } = usePermissions();
  const canHandle = can('health.sos');
  const canOpenPatient = can('user.view');
  const canRate = canHandle && RATABLE_TICKET_STATUSES.includes(ticket.status);
  const wording = ticketWording(ticket.type);
  const actionLabel = (candidate: TicketAction) =>
    candidate === 'assign' ? t(assignLabel(ticket)) : t(`ticketAction.${candidate}`);

  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <BackLink listLabel={t('tickets.detail.back')} patientId={ticket.patient.id} />
          <Title order={1} fz={26}>
            {t('tickets.detail.title', { number: ticket.number })} · {ticket.title}
          </Title>
          <Group gap="xs">
            <TicketStatusBadge status={ticket.status} />
            <Badge variant="outline" tt="none">
              {t(`ticketType.${ticket.type}`)}
            </Badge>
            {ticket.kpiFailureReason === null ? null : (
              <Badge color="red" variant="outline" tt="none">
                {t(`kpiReason.${ticket.kpiFailureReason}`)}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="sm" data-testid="ticket-actions">
          {ticket.allowedActions.map((candidate) => (
            <Button
              key={candidate}
              variant={candidate === 'cancel' || candidate === 'reject' ? 'default' : 'filled'}
              onClick={() => {
                change.reset();
                if (TICKET_ACTIONS[candidate].needsReason) setAction(candidate);
                else change.mutate({ action: candidate, reason: '' });
              }}
              loading={change.isPending && change.variables.action === candidate}
            >
              {actionLabel(candidate)}
            </Button>
          ))}
        </Group>
      </Group>
      {canHandle ? null : (
        <Alert color="blue" variant="light" data-testid="ticket-read-only">
          {t('tickets.detail.readOnly')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <Card withBorder radius="md">
          <Stack gap={6}>
            <Text fz="sm">
              {t('tickets.detail.patient')}:{' '}
              {canOpenPatient ? (
                <Anchor component={Link} to={`../../patients/${ticket.patient.id}`} relative="path">
                  {ticket.patient.fullName}
                </Anchor>
              ) : (
                ticket.patient.fullName
              )}{' '}
              ({ticket.patient.patientCode})
            </Text>
            <Text fz="sm">
              {t('tickets.detail.assignee')}: {ticket.assignee?.fullName ?? t('sos.unassigned')}
            </Text>
            <Text fz="sm">
              {t('tickets.detail.kpiDue')}: {formatDateTime(ticket.kpiDueAt)}
            </Text>
            {ticket.sosAt === null ? null : (
              <Text fz="sm">
                {t(wording.eventAt)}: {formatDateTime(ticket.sosAt)}
              </Text>
            )}
            {ticket.location === null ? null : (
              <Text fz="sm">
                {t('sos.detail.location')}: {ticket.location.lat.toFixed(5)}, {ticket.location.lng.toFixed(5)}
              </Text>
            )}
            {ticket.sosCaseId === null ? null : (
              <Anchor component={Link} to={`../../sos/${ticket.sosCaseId}`} relative="path" fz="sm">
                {t('tickets.detail.openSosCase')}
              </Anchor>
            )}
            {ticket.cancelReason === null ? null : (
              <Text fz="sm">
                {t('tickets.detail.cancelReason')}: {ticket.cancelReason}
              </Text>
            )}
            {ticket.description === '' ? null : <Text fz="sm">{ticket.description}</Text>}
          </Stack>
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t(wording.indicatorsTitle)}
          </Title>
          {ticket.healthIndicators.length === 0 ? (
            <Text fz="sm" c="dimmed" data-testid="ticket-no-indicators">
              {t(wording.noIndicators)}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {ticket.healthIndicators.map((vital) => (
                  <Table.Tr key={`${vital.measure}-${vital.measuredAt}`}>
                    <Table.Td>{t(`measure.${vital.measure}`, { defaultValue: vital.measure })}</Table.Td>
                    <Table.Td fw={600}>{vital.value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <TextInput
            mt="md"
            label={t('tickets.detail.currentAction')}
            description={t('tickets.detail.currentActionHint')}
            value={currentAction}
            readOnly={!canHandle}
            onChange={(event) => {
              setCurrentAction(event.currentTarget.value);
            }}
            maxLength={200}
          />
        </Card>
        <Card withBorder radius="md">
          <Title order={2} fz="md" mb="sm">
            {t('tickets.detail.rating')}
          </Title>
          {canRate || !canHandle ? null : (
            <Text fz="sm" c="dimmed" mb="sm">
              {t('tickets.detail.ratingLater')}
            </Text>
          )}
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fz="sm">{t('tickets.detail.kpiRating')}</Text>
              <Rating
                value={ticket.kpiRating ?? 0}
                readOnly={!canRate}
                onChange={(value) => {
                  rate.mutate({ kpiRating: value });
                }}
                aria-label={t('tickets.detail.kpiRating')}
              />
            </Group>
            <Group justify="space-between">
              <Text fz="sm">{t('tickets.detail.customerRating')}</Text>
              <Rating
                value={ticket.customerRating ?? 0}
                readOnly={!canRate}
                onChange={(value) => {
                  rate.mutate({ customerRating: value });
                }}
                aria-label={t('tickets.detail.customerRating')}
              />
            </Group>
            {ticket.customerRatingMessage === '' ? null : (
              <Text fz="sm" c="dimmed" data-testid="customer-rating-message">
                “{ticket.customerRatingMessage}”
              </Text>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
      <HistoryTimeline
        title={t('tickets.detail.history')}
        testId="ticket-history"
        steps={ticket.history.map((entry) => ({
          id: entry.id,
          title: t(`historyKind.${entry.action}`, { defaultValue: entry.action }),
          statusLabel: entry.toStatus === null ? null : t(`ticketStatus.${entry.toStatus}`),
          at: entry.at,
          actor: entry.actor,
          note: entry.note,
        }))}
      />
      {action === null ? null : (
        <ReasonDialog
          key={action}
          opened
          title={actionLabel(action)}
          needsReason={TICKET_ACTIONS[action].needsReason}
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
