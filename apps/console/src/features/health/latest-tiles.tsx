import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { LatestReadings, Measure } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../lib/format';
import { STATUS_COLOR } from '../patients/patient-status-badge';
import { ErrorState, LoadingState } from '../shell/query-states';
import { unitLabel } from './chart-data';
import { VitalAgeLabel } from './vital-age-label';

/** Measures shown as tiles, in this order, when the patient has them. */
const TILE_MEASURES: readonly Measure[] = [
  'HEART_RATE',
  'SPO2',
  'SYSTOLIC',
  'DIASTOLIC',
  'HRV',
  'TEMPERATURE',
  'GLUCOSE',
  'RESPIRATION',
  'STEPS',
  'WEIGHT',
];

function formatValue(measure: Measure, value: number): string {
  const decimals = measure === 'TEMPERATURE' || measure === 'WEIGHT' || measure === 'GLUCOSE' ? 1 : 0;
  return formatNumber(value, decimals);
}

/** The latest value of each measure with its time, and the patient's vital status. */
export function LatestTiles({
  query,
  narrow = false,
}: {
  query: UseQueryResult<LatestReadings>;
  /** In a side panel (the video room): two tiles a row whatever the window. */
  narrow?: boolean;
}) {
  const { t } = useTranslation('health');
  if (query.isPending) return <LoadingState />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const { readings, status, lastReadingAt, alertsSuppressed } = query.data;
  const byMeasure = new Map(readings.map((reading) => [reading.measure, reading]));
  const tiles = TILE_MEASURES.flatMap((measure) => {
    const reading = byMeasure.get(measure);
    return reading === undefined ? [] : [reading];
  });
  return (
    <Stack gap="sm" style={{ flexGrow: 1 }}>
      <Group gap="sm">
        <Text fw={600}>{t('latest.title')}</Text>
        <Badge
          color={STATUS_COLOR[status]}
          variant="light"
          tt="none"
          data-testid="vital-status"
          data-status={status}
        >
          {t(`status.${status}`)}
        </Badge>
        {alertsSuppressed ? (
          <Badge color="gray" variant="outline" tt="none">
            {t('latest.suppressed')}
          </Badge>
        ) : null}
        <Text fz="sm" c="dimmed">
          {lastReadingAt === null
            ? t('latest.never')
            : t('latest.lastReading', { time: formatDateTime(lastReadingAt) })}
        </Text>
      </Group>
      {tiles.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t('latest.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={narrow ? 2 : { base: 2, md: 5 }} spacing="sm">
          {tiles.map((reading) => (
            <Paper
              key={reading.measure}
              withBorder
              radius="md"
              p="sm"
              data-testid={`latest-${reading.measure}`}
            >
              <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
                {t(`measures.${reading.measure}`)}
              </Text>
              <Text fz="lg" fw={600} mt={2}>
                {formatValue(reading.measure, reading.value)}{' '}
                <Text span fz="sm" c="dimmed" fw={400}>
                  {unitLabel(reading.unit)}
                </Text>
              </Text>
              <VitalAgeLabel measuredAt={reading.measuredAt} />
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
