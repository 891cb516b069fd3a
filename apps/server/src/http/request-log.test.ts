import { describe, expect, it } from 'vitest';
import { logRequestSummary, percentile, RequestTally, statusClassOf } from './request-log.js';

describe('request summary', () => {
  it('counts requests by status class, 5xx as errors, with the 95th percentile of the times', () => {
    const tally = new RequestTally();
    // 100 requests of 1..100 ms: the 95th percentile (nearest rank) is 95 ms.
    for (let milliseconds = 1; milliseconds <= 100; milliseconds++) {
      const status = milliseconds <= 90 ? 200 : milliseconds <= 97 ? 404 : 503;
      tally.record(status, milliseconds);
    }
    expect(tally.take()).toEqual({
      requests: 100,
      errors: 3,
      p95Milliseconds: 95,
      maxMilliseconds: 100,
      byStatusClass: { '2xx': 90, '4xx': 7, '5xx': 3 },
    });
    // The next interval starts empty.
    expect(tally.take()).toMatchObject({ requests: 0, errors: 0, p95Milliseconds: 0, byStatusClass: {} });
  });

  it('takes the nearest rank: one slow request among 19 fast ones is not the 95th percentile', () => {
    expect(percentile([...Array.from({ length: 19 }, () => 2), 900], 0.95)).toBe(2);
    expect(percentile([...Array.from({ length: 18 }, () => 2), 900, 900], 0.95)).toBe(900);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.95)).toBe(0);
  });

  it('classes statuses at their boundaries', () => {
    expect([199, 200, 299, 300, 399, 400, 499, 500, 599].map(statusClassOf)).toEqual([
      '1xx',
      '2xx',
      '2xx',
      '3xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });

  it('writes one info line for an interval with requests and nothing for a quiet one', () => {
    const lines: { details: object; message: string }[] = [];
    const log = { info: (details: object, message: string) => lines.push({ details, message }) };
    const tally = new RequestTally();
    logRequestSummary(log, tally);
    expect(lines).toEqual([]);
    tally.record(201, 12.34);
    logRequestSummary(log, tally);
    expect(lines).toEqual([
      {
        message: 'requests in the last minute',
        details: {
          summary: {
            requests: 1,
            errors: 0,
            p95Milliseconds: 12.3,
            maxMilliseconds: 12.3,
            byStatusClass: { '2xx': 1 },
          },
        },
      },
    ]);
  });
});
