import { describe, expect, it } from 'vitest';
import { joinedRuns } from './series-chart';

const at = (times: string[]) => times.map((time) => ({ at: `2026-03-01T${time}:00.000Z` }));

describe('joinedRuns', () => {
  it('ends a line where the readings pause for three times their pace, and at least 15 minutes', () => {
    const runs = joinedRuns(at(['08:00', '08:01', '08:02', '08:03', '08:30', '08:31']), 'raw');
    expect(runs.map((run) => run.map((point) => point.at.slice(11, 16)))).toEqual([
      ['08:00', '08:01', '08:02', '08:03'],
      ['08:30', '08:31'],
    ]);
    // Every 30 minutes: one line (a pause is 90 minutes for them).
    expect(joinedRuns(at(['08:00', '08:30', '09:00', '09:30']), 'raw')).toHaveLength(1);
    // Hourly rollups: a missing hour ends the line.
    expect(joinedRuns(at(['08:00', '09:00', '11:00']), 'hour').map((run) => run.length)).toEqual([2, 1]);
    expect(joinedRuns([], 'raw')).toEqual([]);
  });
});
