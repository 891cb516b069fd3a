import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type uPlot from 'uplot';
import type { EcgDetail, GENDERS } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMeasure } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { ecgDetailQuery, ecgListQuery } from './health-api';
import { qtFlag, type QtFlag } from './health-rules';
import { UPlotChart, type ChartOptions } from './uplot-chart';

type Gender = (typeof GENDERS)[number];
const PAGE_SIZE = 10;
const QT_COLORS: Record<QtFlag, string> = {
  short: 'yellow',
  normal: 'teal',
  prolonged: 'orange',
  dangerous: 'red',
};

/**
 * ECG paper: small squares of 0.04 s × 0.1 mV, large ones of 0.2 s × 0.5 mV, drawn before the
 * trace in the classic pink.
 */
const ecgPaper: uPlot.Plugin = {
  hooks: {
    drawClear: (plot) => {
      const context = plot.ctx;
      const { left, top, width, height } = plot.bbox;
      const xMin = plot.scales.x?.min ?? 0;
      const xMax = plot.scales.x?.max ?? 0;
      const yMin = plot.scales.y?.min ?? 0;
      const yMax = plot.scales.y?.max ?? 0;
      context.save();
      context.fillStyle = '#fff5f5';
      context.fillRect(left, top, width, height);
      const drawLines = (step: number, isMajor: boolean) => {
        context.strokeStyle = isMajor ? '#ffa8a8' : '#ffe3e3';
        context.lineWidth = (isMajor ? 1 : 0.6) * devicePixelRatio;
        context.beginPath();
        for (let x = Math.ceil(xMin / step) * step; x <= xMax; x += step) {
          const position = plot.valToPos(x, 'x', true);
          context.moveTo(position, top);
          context.lineTo(position, top + height);
        }
        const yStep = isMajor ? 0.5 : 0.1;
        for (let y = Math.ceil(yMin / yStep) * yStep; y <= yMax; y += yStep) {
          const position = plot.valToPos(y, 'y', true);
          context.moveTo(left, position);
          context.lineTo(left + width, position);
        }
        context.stroke();
      };
      drawLines(0.04, false);
      drawLines(0.2, true);
      context.restore();
    },
  },
};

function EcgWaveform({ record }: { record: EcgDetail }) {
  const { t } = useTranslation('health');
  const data = useMemo<uPlot.AlignedData>(
    () => [record.samples.map((_, index) => index / record.sampleRate), record.samples],
    [record],
  );
  const options = useMemo<ChartOptions>(() => {
    // A loop, not Math.min(...samples): a 10-minute record has 300,000 samples.
    let smallest = 0;
    let largest = 0;
    for (const sample of record.samples) {
      if (sample < smallest) smallest = sample;
      if (sample > largest) largest = sample;
    }
    const low = Math.min(-0.5, Math.floor(smallest * 2) / 2);
    const high = Math.max(1, Math.ceil(largest * 2) / 2);
    return {
      series: [{}, { label: t('ecg.trace'), stroke: '#212529', width: 1.2, points: { show: false } }],
      scales: { x: { time: false }, y: { range: () => [low, high] } },
      axes: [
        { label: t('ecg.seconds'), grid: { show: false } },
        { label: 'mV', size: 50, grid: { show: false } },
      ],
      legend: { show: false },
      cursor: { drag: { x: true, y: false } },
      plugins: [ecgPaper],
    };
  }, [record, t]);
  if (record.samples.length === 0) return <EmptyList title={t('ecg.noWaveform')} />;
  return <UPlotChart options={options} data={data} height={260} label={t('ecg.waveformLabel')} />;
}

function Measure({
  label,
  value,
  flag,
}: {
  label: string;
  value: string;
  flag?: { color: string; text: string };
}) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Group gap="xs" mt={2}>
        <Text fz="lg" fw={600}>
          {value}
        </Text>
        {flag === undefined ? null : (
          <Badge color={flag.color} variant="light" tt="none" data-testid="qt-flag">
            {flag.text}
          </Badge>
        )}
      </Group>
    </Paper>
  );
}

function EcgDetailView({
  patientId,
  ecgId,
  gender,
}: {
  patientId: string;
  ecgId: string;
  gender: Gender | null;
}) {
  const { t } = useTranslation('health');
  const detail = useQuery(ecgDetailQuery(patientId, ecgId));
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const record = detail.data;
  const none = t('none');
  const flag = record.qt === null ? undefined : qtFlag(record.qt, gender);
  return (
    <Stack gap="sm" data-testid="ecg-detail">
      <Title order={3} fz="md">
        {t('ecg.recordOf', { time: formatDateTime(record.measuredAt) })}
      </Title>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Measure
          label={t('ecg.averageHeartRate')}
          value={record.averageHeartRate === null ? none : formatMeasure(record.averageHeartRate, 'bpm', 0)}
        />
        <Measure label={t('ecg.hrv')} value={record.hrv === null ? none : `${record.hrv.toFixed(0)} ms`} />
        <Measure
          label={t('ecg.qt')}
          value={record.qt === null ? none : `${record.qt.toFixed(0)} ms`}
          {...(flag === undefined
            ? {}
            : { flag: { color: QT_COLORS[flag], text: t(`ecg.qtFlags.${flag}`) } })}
        />
        <Measure
          label={t('ecg.respiration')}
          value={
            record.respirationRate === null
              ? none
              : t('ecg.perMinute', { value: record.respirationRate.toFixed(0) })
          }
        />
      </SimpleGrid>
      <Text fz="xs" c="dimmed">
        {t('ecg.paperHint', { rate: record.sampleRate, seconds: record.durationSeconds })}
      </Text>
      <EcgWaveform record={record} />
    </Stack>
  );
}

/** The patient's ECG records, newest first; choosing one shows its waveform and measures. */
export function EcgPanel({ patientId, gender }: { patientId: string; gender: Gender | null }) {
  const { t } = useTranslation('health');
  const [page, setPage] = useState(0);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useQuery(ecgListQuery(patientId, page, PAGE_SIZE));
  if (list.isPending) return <LoadingState />;
  if (list.isError)
    return <ErrorState error={list.error} title={t('ecg.loadError')} onRetry={() => void list.refetch()} />;
  if (list.data.total === 0) return <EmptyList title={t('ecg.empty')} description={t('ecg.emptyHint')} />;
  const none = t('none');
  const current = chosen ?? list.data.items[0]?.id ?? null;
  return (
    <Stack gap="lg">
      <Table.ScrollContainer minWidth={640}>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('ecg.measuredAt')}</Table.Th>
              <Table.Th>{t('ecg.averageHeartRate')}</Table.Th>
              <Table.Th>{t('ecg.hrv')}</Table.Th>
              <Table.Th>{t('ecg.qt')}</Table.Th>
              <Table.Th>{t('ecg.respiration')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((record) => (
              <Table.Tr
                key={record.id}
                bg={record.id === current ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>{formatDateTime(record.measuredAt)}</Table.Td>
                <Table.Td>{record.averageHeartRate?.toFixed(0) ?? none}</Table.Td>
                <Table.Td>{record.hrv?.toFixed(0) ?? none}</Table.Td>
                <Table.Td>{record.qt?.toFixed(0) ?? none}</Table.Td>
                <Table.Td>{record.respirationRate?.toFixed(0) ?? none}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => {
                      setChosen(record.id);
                    }}
                    aria-label={t('ecg.openAria', { time: formatDateTime(record.measuredAt) })}
                  >
                    {t('ecg.open')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TablePager page={page} size={PAGE_SIZE} total={list.data.total} onChange={setPage} />
      {current === null ? null : (
        <EcgDetailView key={current} patientId={patientId} ecgId={current} gender={gender} />
      )}
    </Stack>
  );
}
