import { longestJoinedGap, type HealthPoint } from '@rpm/contracts';

const WIDTH = 340;
const HEIGHT = 170;
const PAD = { left: 36, right: 8, top: 10, bottom: 22 };

interface ChartProps {
  points: readonly HealthPoint[];
  from: string;
  to: string;
  /** Rollups draw each bucket's min–max as a bar and its mean as a dot; raw readings a line. */
  resolution: 'raw' | 'hour' | 'day';
  /** What a screen reader hears instead of the drawing. */
  label: string;
  format: (value: number) => string;
  startLabel: string;
  endLabel: string;
}

/**
 * The points in runs drawn as one line each: a pause longer than longestJoinedGap (contracts) ends
 * a run, so the line does not cross hours in which nothing was measured.
 */
export function joinedRuns<Point extends { at: string }>(
  points: readonly Point[],
  resolution: 'raw' | 'hour' | 'day',
): Point[][] {
  const times = points.map((point) => Date.parse(point.at));
  const joined = longestJoinedGap(resolution, times);
  const runs: Point[][] = [];
  points.forEach((point, index) => {
    const run = runs.at(-1);
    const previous = times[index - 1];
    if (run === undefined || previous === undefined || (times[index] ?? previous) - previous > joined) runs.push([point]);
    else run.push(point);
  });
  return runs;
}

/** A small inline SVG chart of one period (no chart library: a few dozen shapes at most). */
export function SeriesChart({
  points,
  from,
  to,
  resolution,
  label,
  format,
  startLabel,
  endLabel,
}: ChartProps) {
  const start = Date.parse(from);
  const span = Math.max(1, Date.parse(to) - start);
  const low = Math.min(...points.map((point) => point.min));
  const high = Math.max(...points.map((point) => point.max));
  const margin = Math.max((high - low) * 0.1, 1);
  const [bottom, top] = [low - margin, high + margin];
  const x = (at: string) => PAD.left + ((Date.parse(at) - start) / span) * (WIDTH - PAD.left - PAD.right);
  const y = (value: number) => PAD.top + ((top - value) / (top - bottom)) * (HEIGHT - PAD.top - PAD.bottom);
  const barWidth = Math.max(
    2,
    Math.min(10, ((WIDTH - PAD.left - PAD.right) / Math.max(points.length, 1)) * 0.6),
  );
  const lines = joinedRuns(points, resolution).map((run) =>
    run.map((point) => `${x(point.at).toFixed(1)},${y(point.value).toFixed(1)}`).join(' '),
  );
  return (
    <svg
      className="series-chart"
      viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`}
      role="img"
      aria-label={label}
    >
      <line
        className="axis"
        x1={PAD.left}
        x2={WIDTH - PAD.right}
        y1={HEIGHT - PAD.bottom}
        y2={HEIGHT - PAD.bottom}
      />
      {[high, low].map((value) => (
        <g key={value}>
          <line className="grid" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(value)} y2={y(value)} />
          <text className="tick" x={PAD.left - 4} y={y(value) + 4} textAnchor="end">
            {format(value)}
          </text>
        </g>
      ))}
      {resolution === 'raw' ? (
        lines.map((line) => <polyline key={line} className="series-line" points={line} />)
      ) : (
        points.map((point) => (
          <rect
            key={point.at}
            className="series-bar"
            x={x(point.at) - barWidth / 2}
            y={y(point.max)}
            width={barWidth}
            height={Math.max(2, y(point.min) - y(point.max))}
            rx={barWidth / 2}
          />
        ))
      )}
      {points.map((point) => (
        <circle
          key={`dot-${point.at}`}
          className="series-dot"
          cx={x(point.at)}
          cy={y(point.value)}
          r={resolution === 'raw' ? 2 : 2.5}
        />
      ))}
      <text className="tick" x={PAD.left} y={HEIGHT - 6}>
        {startLabel}
      </text>
      <text className="tick" x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end">
        {endLabel}
      </text>
    </svg>
  );
}
