import { Anchor, Badge, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import type { PatientListScope, PatientSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { VitalAgeLabel } from '../health/vital-age-label';
import { SOS_CASE_READ_PERMISSIONS } from '../monitoring/monitoring-routes';
import { usePermissions } from '../shell/permissions';
import { PatientStatusBadge } from './patient-status-badge';

/**
 * The triage columns the patient list and the home worklist share: status with what needs
 * attention (an open SOS case, a silent watch), what crossed, the last reading and its age, and
 * the open case or ticket.
 */

/** "My patients" (the care team) or "My center" (everything the level sees). */
export function ScopeControl({
  value,
  onChange,
}: {
  value: PatientListScope;
  onChange: (scope: PatientListScope) => void;
}) {
  const { t } = useTranslation('patients');
  return (
    <SegmentedControl
      aria-label={t('triage.scopeLabel')}
      data-testid="patient-scope"
      value={value}
      onChange={(next) => {
        onChange(next === 'mine' ? 'mine' : 'center');
      }}
      data={[
        { value: 'mine', label: t('triage.scope.mine') },
        { value: 'center', label: t('triage.scope.center') },
      ]}
    />
  );
}

/** Badges say their whole text (never cut to "Open S…"). */
const FULL_LABEL = { label: { overflow: 'visible' } } as const;

export function AttentionCell({ row }: { row: PatientSummary }) {
  const { t } = useTranslation('patients');
  return (
    <Group gap={6} wrap="wrap" miw={130} data-testid="patient-attention" data-attention={row.attention}>
      <PatientStatusBadge status={row.status} />
      {row.attention === 'OPEN_SOS_CASE' ? (
        <Badge color="red" variant="outline" tt="none" styles={FULL_LABEL}>
          {t('triage.attention.OPEN_SOS_CASE')}
        </Badge>
      ) : null}
      {row.noData ? (
        <Badge color="gray" variant="outline" tt="none" styles={FULL_LABEL}>
          {t('triage.attention.NO_DATA')}
        </Badge>
      ) : null}
    </Group>
  );
}

const formatValue = (value: number) => String(Math.round(value * 10) / 10);

export function CrossedCell({ row }: { row: PatientSummary }) {
  const { t } = useTranslation(['patients', 'monitoring']);
  if (row.crossed === null)
    return (
      <Text fz="sm" c="dimmed">
        {t('patients:triage.nothingCrossed')}
      </Text>
    );
  const { type, readings } = row.crossed;
  // The headline value: systolic/diastolic for blood pressure, else the reading of the alert's own measure.
  const headline =
    type === 'BLOOD_PRESSURE'
      ? readings
          .filter((reading) => reading.measure === 'SYSTOLIC' || reading.measure === 'DIASTOLIC')
          .map((reading) => formatValue(reading.value))
          .join('/')
      : (readings.find((reading) => reading.measure === type) ?? readings[0])?.value;
  const values = typeof headline === 'number' ? formatValue(headline) : (headline ?? '');
  const measures = readings
    .map(
      (reading) =>
        `${t(`monitoring:measure.${reading.measure}`, { defaultValue: reading.measure })} ${formatValue(reading.value)}`,
    )
    .join(' · ');
  return (
    <Stack gap={0} data-testid="patient-crossed">
      <Text fz="sm" fw={600}>
        {t(`monitoring:alertType.${row.crossed.type}`)}
        {values === '' ? '' : ` ${values}`}
      </Text>
      {measures === '' ? null : (
        <Text fz="xs" c="dimmed">
          {measures}
        </Text>
      )}
    </Stack>
  );
}

export function LastReadingCell({ row }: { row: PatientSummary }) {
  const { t } = useTranslation('patients');
  if (row.lastReadingAt === null)
    return (
      <Text fz="sm" c="dimmed">
        {t('triage.noReading')}
      </Text>
    );
  return <VitalAgeLabel measuredAt={row.lastReadingAt} fz="xs" />;
}

/** The open SOS case (where the caller may read cases) and the open ticket, as links. */
export function OpenWorkCell({ row, areaPrefix }: { row: PatientSummary; areaPrefix: string }) {
  const { t } = useTranslation('patients');
  const { can } = usePermissions();
  const mayReadCases = SOS_CASE_READ_PERMISSIONS.some((permission) => can(permission));
  if (row.openSosCaseId === null && row.openTicketId === null && row.missedDoses === 0)
    return (
      <Text fz="sm" c="dimmed">
        {t('triage.noOpenWork')}
      </Text>
    );
  return (
    <Stack gap={4}>
      {row.openSosCaseId === null ? null : mayReadCases ? (
        <Anchor component={Link} to={`${areaPrefix}/sos/${row.openSosCaseId}`} fz="sm" c="red" fw={600}>
          {t('triage.openCase')}
        </Anchor>
      ) : (
        <Text fz="sm" c="red" fw={600}>
          {t('triage.openCase')}
        </Text>
      )}
      {row.openTicketId === null ? null : mayReadCases ? (
        <Anchor component={Link} to={`${areaPrefix}/tickets/${row.openTicketId}`} fz="sm">
          {t('triage.openTicket')}
        </Anchor>
      ) : (
        <Text fz="sm">{t('triage.openTicket')}</Text>
      )}
      {row.missedDoses === 0 ? null : (
        <Text fz="sm" fw={600}>
          {t('triage.missedDoses', { count: row.missedDoses })}
        </Text>
      )}
    </Stack>
  );
}
