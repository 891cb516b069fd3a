import type { CSSProperties } from 'react';
import { Box, Group, Text } from '@mantine/core';
import { formatNumber } from './format';

/**
 * Small count charts drawn with HTML and SVG: bars (one or more series per category) and a ring
 * of shares. They carry no chart library (uPlot draws the dense vitals and the ECG); each is an
 * image whose accessible name lists its figures, numbers formatted in the console's language.
 */

/** A theme colour as the charts were given it ("blue.6", "teal" = shade 6) or any CSS colour. */
export function chartColor(color: string): string {
  const match = /^([a-z]+)(?:\.(\d))?$/.exec(color);
  if (match === null) return color;
  return `var(--mantine-color-${match[1]}-${match[2] ?? '6'})`;
}

export interface BarSeries {
  key: string;
  /** Translated series name, shown in the legend and the accessible name. */
  label: string;
  color: string;
}

export interface BarCategory {
  key: string;
  /** Translated category name, shown under its bars. */
  label: string;
  values: Record<string, number>;
  /** A colour for this category's bars instead of the series colour (one-series charts). */
  color?: string;
}

/** Gridline values from 0 to a round maximum at or above `max`, in whole counts. */
export function countTicks(max: number, wanted = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / wanted;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * magnitude).find((s) => s >= raw) ?? raw);
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return ticks;
}

/** The accessible name of a chart: its title, then each category's figures. */
export function describeBars(
  label: string,
  categories: readonly BarCategory[],
  series: readonly BarSeries[],
): string {
  const parts = categories.map((category) =>
    series.length === 1
      ? `${category.label} ${formatNumber(category.values[series[0]?.key ?? ''] ?? 0)}`
      : `${category.label}: ${series.map((s) => `${s.label} ${formatNumber(category.values[s.key] ?? 0)}`).join(', ')}`,
  );
  return parts.length === 0 ? label : `${label}. ${parts.join('; ')}`;
}

const axisText: CSSProperties = { fontSize: 11, color: 'var(--mantine-color-dimmed)', lineHeight: 1 };

/**
 * Vertical bars per category, with whole-count gridlines. With many categories (days) only every
 * n-th category is named under the axis; each bar still names its figure on hover.
 */
export function CountBarChart({
  label,
  categories,
  series,
  height = 220,
  withLegend = false,
  maxAxisLabels = 12,
  testId,
}: {
  label: string;
  categories: readonly BarCategory[];
  series: readonly BarSeries[];
  height?: number;
  withLegend?: boolean;
  maxAxisLabels?: number;
  testId?: string;
}) {
  const max = Math.max(
    0,
    ...categories.flatMap((category) => series.map((s) => category.values[s.key] ?? 0)),
  );
  const ticks = countTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const labelEvery = Math.max(1, Math.ceil(categories.length / maxAxisLabels));
  const plotHeight = height - 24;
  return (
    <Box data-testid={testId}>
      <div
        role="img"
        aria-label={describeBars(label, categories, series)}
        style={{ display: 'flex', gap: 6 }}
      >
        <div
          aria-hidden
          style={{ position: 'relative', height: plotHeight, minWidth: 28, textAlign: 'right', ...axisText }}
        >
          {ticks.map((tick) => (
            <span
              key={tick}
              style={{ position: 'absolute', right: 0, bottom: `calc(${(tick / top) * 100}% - 5px)` }}
            >
              {formatNumber(tick)}
            </span>
          ))}
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          <div
            style={{
              position: 'relative',
              height: plotHeight,
              borderBottom: '1px solid var(--mantine-color-default-border)',
            }}
          >
            {ticks.slice(1).map((tick) => (
              <div
                key={tick}
                style={{
                  position: 'absolute',
                  left: 0,
                  right: 0,
                  bottom: `${(tick / top) * 100}%`,
                  borderTop: '1px dashed var(--mantine-color-default-border)',
                }}
              />
            ))}
            <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'flex-end', gap: 4 }}>
              {categories.map((category) => (
                <div
                  key={category.key}
                  style={{
                    flex: 1,
                    minWidth: 0,
                    height: '100%',
                    display: 'flex',
                    alignItems: 'flex-end',
                    justifyContent: 'center',
                    gap: 2,
                  }}
                >
                  {series.map((s) => {
                    const value = category.values[s.key] ?? 0;
                    return (
                      <div
                        key={s.key}
                        title={`${category.label} · ${s.label}: ${formatNumber(value)}`}
                        style={{
                          flex: 1,
                          maxWidth: 48,
                          height: `${(value / top) * 100}%`,
                          minHeight: value > 0 ? 2 : 0,
                          background: chartColor(category.color ?? s.color),
                          borderRadius: '3px 3px 0 0',
                        }}
                      />
                    );
                  })}
                </div>
              ))}
            </div>
          </div>
          <div aria-hidden style={{ display: 'flex', gap: 4, marginTop: 6 }}>
            {categories.map((category, index) => (
              <span
                key={category.key}
                style={{
                  flex: 1,
                  minWidth: 0,
                  textAlign: 'center',
                  whiteSpace: 'nowrap',
                  overflow: 'visible',
                  ...axisText,
                }}
              >
                {index % labelEvery === 0 ? category.label : ''}
              </span>
            ))}
          </div>
        </div>
      </div>
      {withLegend ? (
        <Group gap="md" justify="center" mt="xs" aria-hidden>
          {series.map((s) => (
            <Group key={s.key} gap={6}>
              <span style={{ width: 10, height: 10, borderRadius: 2, background: chartColor(s.color) }} />
              <Text fz="xs">{s.label}</Text>
            </Group>
          ))}
        </Group>
      ) : null}
    </Box>
  );
}

export interface RingSlice {
  key: string;
  label: string;
  value: number;
  color: string;
}

/** Shares of a whole as a ring (the figures beside it are the legend). */
export function CountRingChart({
  label,
  slices,
  size = 160,
}: {
  label: string;
  slices: readonly RingSlice[];
  size?: number;
}) {
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  const radius = 15.9155; // circumference 100: dash lengths are percentages
  let offset = 0;
  const description = [label, ...slices.map((slice) => `${slice.label} ${formatNumber(slice.value)}`)].join(
    '; ',
  );
  return (
    <svg role="img" aria-label={description} width={size} height={size} viewBox="0 0 42 42">
      <circle
        cx="21"
        cy="21"
        r={radius}
        fill="none"
        stroke="var(--mantine-color-default-border)"
        strokeWidth="6"
      />
      {total === 0
        ? null
        : slices
            .filter((slice) => slice.value > 0)
            .map((slice) => {
              const share = (slice.value / total) * 100;
              const dash = `${share} ${100 - share}`;
              const dashOffset = 25 - offset;
              offset += share;
              return (
                <circle
                  key={slice.key}
                  cx="21"
                  cy="21"
                  r={radius}
                  fill="none"
                  stroke={chartColor(slice.color)}
                  strokeWidth="6"
                  strokeDasharray={dash}
                  strokeDashoffset={dashOffset}
                >
                  <title>{`${slice.label}: ${formatNumber(slice.value)}`}</title>
                </circle>
              );
            })}
      <text x="21" y="23" textAnchor="middle" fontSize="6" fontWeight="700" fill="currentColor">
        {formatNumber(total)}
      </text>
    </svg>
  );
}
