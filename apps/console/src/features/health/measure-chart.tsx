import { useMemo } from 'react';
import type uPlot from 'uplot';
import { ALERT_LEVELS, type HealthSeries, type ThresholdSet } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import {
  alignSeries,
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

/**
 * Shades the alert zones behind the series: for the first metric, everything beyond each level's
 * bounds in the level's colour (nested, so SOS zones are the most saturated); every bound also gets
 * a dashed line, so blood pressure shows both systolic and diastolic limits.
 */
function thresholdPlugin(lines: readonly ThresholdLine[], primary: string | undefined): uPlot.Plugin {
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
        for (const level of ALERT_LEVELS) {
          context.fillStyle = withAlpha(LEVEL_COLORS[level], '22');
          for (const line of lines.filter((item) => item.level === level && item.metric === primary)) {
            const y = plot.valToPos(line.value, 'y', true);
            if (line.side === 'upper')
              context.fillRect(left, top, width, Math.max(0, Math.min(y, bottom) - top));
            else context.fillRect(left, Math.max(top, y), width, Math.max(0, bottom - Math.max(top, y)));
          }
        }
        context.setLineDash([6, 4]);
        context.lineWidth = 1.5 * devicePixelRatio;
        for (const line of lines) {
          const y = plot.valToPos(line.value, 'y', true);
          if (y < top || y > bottom) continue;
          context.strokeStyle = LEVEL_COLORS[line.level];
          context.beginPath();
          context.moveTo(left, y);
          context.lineTo(left + width, y);
          context.stroke();
        }
        context.restore();
      },
    },
  };
}

/** One measure's chart: min–max band and mean line per series, threshold zones behind them. */
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
  const unit = series[0]?.unit ?? '';
  const data = useMemo(() => alignSeries(series), [series]);
  const lines = useMemo(
    () => thresholdLines(measure.thresholds, thresholds, unit),
    [measure.thresholds, thresholds, unit],
  );
  const isRaw = series[0]?.resolution === 'raw';

  const options = useMemo<ChartOptions>(() => {
    const yRange = valueRange(data, lines);
    const xRange: [number, number] = [range.from.getTime() / 1000, range.to.getTime() / 1000];
    const uplotSeries: uPlot.Series[] = [{}];
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
    return {
      series: uplotSeries,
      bands,
      scales: {
        x: { time: true, range: () => xRange },
        y: yRange === null ? {} : { range: () => yRange },
      },
      axes: [{}, { label: unitLabel(unit), size: 56 }],
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      plugins: [thresholdPlugin(lines, measure.thresholds[0])],
    };
  }, [data, lines, measure, isRaw, unit, t, range]);

  return (
    <UPlotChart
      options={options}
      data={data as uPlot.AlignedData}
      height={height}
      label={t('chart.label', { measure: t(`measures.${measure.key}`) })}
    />
  );
}
