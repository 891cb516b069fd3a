import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import { ALERT_LEVELS, type HealthSeries, type ThresholdSet } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { profileQuery } from '../account/account-api';
import { useOptionalSession } from '../shell/session-context';
import { formatNumber } from '../../lib/format';
import { chartAxisLabels, chartDateTime, usableTimeZone } from './chart-time';
import {
  alignSeries,
  hasLateReadings,
  lateColumns,
  LEVEL_COLORS,
  SERIES_COLORS,
  thresholdLines,
  valueRange,
  type ChartMeasure,
  type ThresholdLine,
  unitLabel,
} from './chart-data';
import { UPlotChart, type ChartOptions } from './uplot-chart';

const withAlpha = (hex: string, alpha: string) => `${hex}${alpha}`;

/** Dash pattern of each metric's threshold lines (systolic dashed, diastolic dotted). */
const METRIC_DASHES: readonly (readonly number[])[] = [
  [8, 4],
  [2, 3],
];

/**
 * Draws the alert thresholds behind the series. One metric: everything beyond each level's bounds
 * is shaded in the level's colour (nested, so SOS zones are the most saturated) and each bound is
 * a dashed line. Several metrics (blood pressure): no shared shading, which would put one metric's
 * readings in the other's zones; each metric's bounds are lines in the level's colour with the
 * metric's own dash pattern (its legend entry shows it) and its short name at the right end.
 */
function thresholdPlugin(
  lines: readonly ThresholdLine[],
  metrics: readonly string[],
  shortNames: Readonly<Record<string, string>>,
): uPlot.Plugin {
  const isShaded = metrics.length === 1;
  return {
    hooks: {
      drawClear: (plot) => {
        const context = plot.ctx;
        const { left, top, width, height } = plot.bbox;
        const bottom = top + height;
        context.save();
        context.beginPath();
        context.rect(left, top, width, height);
        context.clip();
        for (const level of isShaded ? ALERT_LEVELS : []) {
          context.fillStyle = withAlpha(LEVEL_COLORS[level], '22');
          for (const line of lines.filter((item) => item.level === level && item.metric === metrics[0])) {
            const y = plot.valToPos(line.value, 'y', true);
            if (line.side === 'upper')
              context.fillRect(left, top, width, Math.max(0, Math.min(y, bottom) - top));
            else context.fillRect(left, Math.max(top, y), width, Math.max(0, bottom - Math.max(top, y)));
          }
        }
        context.lineWidth = 1.5 * devicePixelRatio;
        context.font = `${String(11 * devicePixelRatio)}px sans-serif`;
        context.textAlign = 'right';
        context.textBaseline = 'bottom';
        for (const line of lines) {
          const y = plot.valToPos(line.value, 'y', true);
          if (y < top || y > bottom) continue;
          const index = Math.max(0, metrics.indexOf(line.metric));
          context.setLineDash((METRIC_DASHES[index % METRIC_DASHES.length] ?? [6, 4]).map((dash) => dash * devicePixelRatio));
          context.strokeStyle = LEVEL_COLORS[line.level];
          context.beginPath();
          context.moveTo(left, y);
          context.lineTo(left + width, y);
          context.stroke();
          if (!isShaded) {
            context.fillStyle = LEVEL_COLORS[line.level];
            context.fillText(shortNames[line.metric] ?? line.metric, left + width - 4 * devicePixelRatio, y - 2 * devicePixelRatio);
          }
        }
        context.restore();
      },
    },
  };
}

/**
 * One measure's chart: min–max band and mean line per series, threshold zones behind them; in the
 * raw (day) view, late readings as hollow points with their own legend entry ("… late").
 */
export function MeasureChart({
  measure,
  series,
  thresholds,
  range,
  height = 300,
}: {
  measure: ChartMeasure;
  series: readonly HealthSeries[];
  thresholds: ThresholdSet | undefined;
  /** The period shown, whatever part of it has data. */
  range: { from: Date; to: Date };
  height?: number;
}) {
  const { t } = useTranslation('health');
  const session = useOptionalSession();
  const profile = useQuery({ ...profileQuery(session?.user.userId ?? ''), enabled: session !== null });
  const timeZone = usableTimeZone(profile.data?.timeZone);
  const unit = series[0]?.unit ?? '';
  const metrics = measure.thresholds;
  const hasThresholdLegend = metrics.length > 1;
  const isRaw = series[0]?.resolution === 'raw';
  const showsLate = isRaw && hasLateReadings(series);
  const data = useMemo(() => {
    const aligned = alignSeries(series);
    // Late readings: one series per measure holding only them, drawn as hollow points on top.
    const late = showsLate ? lateColumns(series, aligned[0] ?? []) : [];
    if (!hasThresholdLegend) return [...aligned, ...late];
    // Legend-only series (no values): one per metric, showing its threshold lines' dash pattern.
    const empty = (aligned[0] ?? []).map(() => null);
    return [...aligned, ...late, ...metrics.map(() => empty)];
  }, [series, showsLate, hasThresholdLegend, metrics]);
  const lines = useMemo(
    () => thresholdLines(measure.thresholds, thresholds, unit),
    [measure.thresholds, thresholds, unit],
  );

  const options = useMemo<ChartOptions>(() => {
    const yRange = valueRange(data, lines);
    const xRange: [number, number] = [range.from.getTime() / 1000, range.to.getTime() / 1000];
    const uplotSeries: uPlot.Series[] = [
      {
        label: t('chart.time'),
        value: (_plot, value) => (Number.isFinite(value) ? chartDateTime(value, timeZone) : '—'),
      },
    ];
    const bands: uPlot.Band[] = [];
    measure.series.forEach((name, index) => {
      const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? '#1c7ed6';
      const label = t(`measures.${name}`);
      const first = 1 + index * 3;
      uplotSeries.push(
        { label: t('chart.max', { measure: label }), stroke: withAlpha(color, '55'), width: 1, show: !isRaw },
        { label: t('chart.min', { measure: label }), stroke: withAlpha(color, '55'), width: 1, show: !isRaw },
        {
          label: isRaw ? label : t('chart.average', { measure: label }),
          stroke: color,
          width: 2,
          points: { show: isRaw, size: 4 },
          spanGaps: false,
        },
      );
      if (!isRaw) bands.push({ series: [first, first + 1], fill: withAlpha(color, '26') });
    });
    if (showsLate) {
      measure.series.forEach((name, index) => {
        const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? '#1c7ed6';
        uplotSeries.push({
          label: t('chart.late', { measure: t(`measures.${name}`) }),
          stroke: color,
          width: 0,
          paths: () => null,
          // Hollow: the reading counts as shown but was never judged (it came after the horizon).
          points: { show: true, size: 9, width: 2, stroke: color, fill: '#ffffff' },
          spanGaps: false,
        });
      });
    }
    if (hasThresholdLegend) {
      metrics.forEach((metric, index) => {
        uplotSeries.push({
          label: t('chart.thresholdsOf', { measure: t(`measures.${metric}`) }),
          stroke: '#495057',
          width: 1.5,
          dash: [...(METRIC_DASHES[index % METRIC_DASHES.length] ?? [6, 4])],
          points: { show: false },
          value: () => '',
        });
      });
    }
    // Legend values in the console's language, with the measure's decimals (36,6 in vi).
    for (const item of uplotSeries.slice(1)) item.value ??= (_plot, value) => (Number.isFinite(value) ? formatNumber(value, measure.decimals) : '—');
    const shortNames = Object.fromEntries(metrics.map((metric) => [metric, t(`measures.${metric}`)]));
    return {
      series: uplotSeries,
      bands,
      scales: {
        x: { time: true, range: () => xRange },
        y: yRange === null ? {} : { range: () => yRange },
      },
      // Ticks fall on the zone's hours and days; labels are dd/MM/yyyy and HH:mm in that zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), timeZone),
      axes: [
        { values: (_plot, ticks) => chartAxisLabels(ticks, timeZone), space: 95, size: 56 },
        { label: unitLabel(unit), size: 56, values: (_plot, ticks) => ticks.map((tick) => formatNumber(tick)) },
      ],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      plugins: [thresholdPlugin(lines, metrics, shortNames)],
    };
  }, [data, lines, measure, metrics, hasThresholdLegend, isRaw, showsLate, unit, t, range, timeZone]);

  return (
    <UPlotChart
      options={options}
      data={data as uPlot.AlignedData}
      height={height}
      label={t('chart.label', { measure: t(`measures.${measure.key}`) })}
    />
  );
}
