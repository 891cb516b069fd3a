import { Badge, Card, Group, Text, Timeline, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';

/** One step of an SOS case's or a ticket's history, with its texts already chosen by the page. */
export interface HistoryStep {
  id: string;
  title: string;
  /** The status the step led to, as shown; null when it changed no status. */
  statusLabel: string | null;
  at: string;
  /** Who did it; null for the system. */
  actor: { fullName: string } | null;
  note: string;
}

/** The action history of an SOS case or a ticket (spec §3 "action history", "history"). */
export function HistoryTimeline({
  title,
  steps,
  testId,
}: {
  title: string;
  steps: HistoryStep[];
  testId: string;
}) {
  const { t } = useTranslation('monitoring');
  return (
    <Card withBorder radius="md">
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      <Timeline bulletSize={14} lineWidth={2} data-testid={testId}>
        {steps.map((step) => (
          <Timeline.Item key={step.id} title={step.title}>
            <Group gap={6}>
              {step.statusLabel === null ? null : (
                <Badge size="xs" variant="light" tt="none">
                  {step.statusLabel}
                </Badge>
              )}
              <Text fz="xs" c="dimmed">
                {formatDateTime(step.at)} ·{' '}
                {step.actor === null
                  ? t('sos.detail.system')
                  : step.actor.fullName || t('sos.detail.staffMember')}
              </Text>
            </Group>
            {step.note === '' ? null : <Text fz="sm">{step.note}</Text>}
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}
