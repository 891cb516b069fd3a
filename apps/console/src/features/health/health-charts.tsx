import { useMemo, useState } from 'react';
import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { HEALTH_VIEWS, type HealthView } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { CHART_MEASURES, hasLateReadings, LEVEL_COLORS, SERIES_COLORS, type ChartMeasureKey } from './chart-data';
import { healthSeriesQuery, thresholdsQuery, viewRange } from './health-api';
import { MeasureChart } from './measure-chart';

/** The minute the charts' range ends at: fixed while the panel is open, so the queries stay cached. */
function useRangeEnd(): Date {
  const [end] = useState(() => new Date(Math.ceil(Date.now() / 60_000) * 60_000));
  return end;
}

/** Measure picker, day / week / month / year, the chart with its threshold zones and a legend. */
export function HealthCharts({ patientId }: { patientId: string }) {
  const { t } = useTranslation('health');
  const [measureKey, setMeasureKey] = useState<ChartMeasureKey>('HEART_RATE');
  const [view, setView] = useState<HealthView>('week');
  const end = useRangeEnd();
  const measure = CHART_MEASURES.find((item) => item.key === measureKey) ?? CHART_MEASURES[0];
  const seriesQueries = useQueries({
    queries: measure.series.map((name) => healthSeriesQuery(patientId, name, view, end)),
  });
  const thresholds = useQuery({ ...thresholdsQuery(patientId), enabled: measure.thresholds.length > 0 });
  const failed = seriesQueries.find((query) => query.isError);
  const series = seriesQueries.flatMap((query) => (query.data === undefined ? [] : [query.data]));
  const isLoading = seriesQueries.some((query) => query.isPending);
  const isEmpty = series.length === measure.series.length && series.every((item) => item.points.length === 0);
  const range = useMemo(() => viewRange(view, end), [view, end]);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Select
          label={t('chart.measure')}
          data={CHART_MEASURES.map((item) => ({ value: item.key, label: t(`measures.${item.key}`) }))}
          value={measureKey}
          onChange={(value) => {
            if (value !== null) setMeasureKey(value);
          }}
          allowDeselect={false}
          w={240}
          data-testid="measure-picker"
        />
        <SegmentedControl
          aria-label={t('chart.view')}
          data={HEALTH_VIEWS.map((item) => ({ value: item, label: t(`views.${item}`) }))}
          value={view}
          onChange={(value) => {
            setView(value);
          }}
        />
      </Group>
      <Text fz="sm" c="dimmed">
        {t('chart.range', { from: formatDate(range.from), to: formatDate(range.to) })}
      </Text>
      {failed !== undefined ? (
        <ErrorState
          error={failed.error}
          title={t('chart.loadError')}
          onRetry={() => {
            for (const query of seriesQueries) void query.refetch();
          }}
        />
      ) : isLoading ? (
        <LoadingState />
      ) : isEmpty ? (
        <EmptyList title={t('chart.empty')} description={t('chart.emptyHint')} />
      ) : (
        <div data-testid="health-chart" data-view={view} data-measure={measureKey}>
          <MeasureChart
            measure={measure}
            series={series}
            thresholds={thresholds.data?.thresholds}
            range={range}
          />
        </div>
      )}
      {failed === undefined && !isLoading && hasLateReadings(series) ? (
        <Group gap={6} data-testid="late-legend">
          <span
            aria-hidden
            style={{
              display: 'inline-block',
              width: 9,
              height: 9,
              borderRadius: '50%',
              border: `2px solid ${SERIES_COLORS[0]}`,
              background: '#ffffff',
            }}
          />
          <Text fz="xs">{t('chart.lateHint')}</Text>
        </Group>
      ) : null}
      {measure.thresholds.length > 0 ? (
        <Group gap="md" fz="xs" aria-label={t('chart.legend')}>
          {(['AT_RISK', 'HIGH_RISK', 'SOS'] as const).map((level) => (
            <Group key={level} gap={6}>
              <span
                aria-hidden
                style={{
                  display: 'inline-block',
                  width: 18,
                  height: 0,
                  borderTop: `2px dashed ${LEVEL_COLORS[level]}`,
                }}
              />
              <Text fz="xs">{t(`status.${level}`)}</Text>
            </Group>
          ))}
          <Text fz="xs" c="dimmed">
            {view === 'day' ? t('chart.rawHint') : t('chart.bandHint')}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}
