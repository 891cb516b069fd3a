import type { FastifyInstance } from 'fastify';

/** How often the request summary is written at info. */
export const REQUEST_SUMMARY_INTERVAL_MILLISECONDS = 60_000;

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx';

/** One interval's requests: how many, how many failed on the server's side, and how fast. */
export interface RequestSummary {
  requests: number;
  /** Answers with a 5xx status. */
  errors: number;
  /** The 95th percentile of the response times, in milliseconds (nearest rank); 0 without requests. */
  p95Milliseconds: number;
  /** The slowest response, in milliseconds. */
  maxMilliseconds: number;
  byStatusClass: Partial<Record<StatusClass, number>>;
}

export function statusClassOf(statusCode: number): StatusClass {
  if (statusCode >= 500) return '5xx';
  if (statusCode >= 400) return '4xx';
  if (statusCode >= 300) return '3xx';
  if (statusCode >= 200) return '2xx';
  return '1xx';
}

/** The nearest-rank percentile of durations (any order); 0 for none. */
export function percentile(durations: readonly number[], fraction: number): number {
  if (durations.length === 0) return 0;
  const sorted = [...durations].sort((left, right) => left - right);
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? 0;
}

/** Counts the answered requests of one interval; take() returns the summary and starts the next. */
export class RequestTally {
  private durations: number[] = [];
  private classes: Partial<Record<StatusClass, number>> = {};

  record(statusCode: number, milliseconds: number): void {
    this.durations.push(milliseconds);
    const statusClass = statusClassOf(statusCode);
    this.classes[statusClass] = (this.classes[statusClass] ?? 0) + 1;
  }

  take(): RequestSummary {
    const durations = this.durations;
    const byStatusClass = this.classes;
    this.durations = [];
    this.classes = {};
    const round = (value: number) => Math.round(value * 10) / 10;
    return {
      requests: durations.length,
      errors: byStatusClass['5xx'] ?? 0,
      p95Milliseconds: round(percentile(durations, 0.95)),
      maxMilliseconds: round(durations.reduce((max, value) => Math.max(max, value), 0)),
      byStatusClass,
    };
  }
}

interface SummaryLog {
  info(details: object, message: string): void;
}

/** Writes one interval's summary at info; an interval without requests writes nothing. */
export function logRequestSummary(log: SummaryLog, tally: RequestTally): void {
  const summary = tally.take();
  if (summary.requests === 0) return;
  log.info({ summary }, 'requests in the last minute');
}

/**
 * The request log (Fastify's own per-request lines are turned off with disableRequestLogging):
 * each request and its answer at debug, an answer with a 5xx status at error, and once a minute
 * one summary line at info, so the console output of a running server stays readable.
 */
export function installRequestLog(
  app: FastifyInstance,
  intervalMilliseconds = REQUEST_SUMMARY_INTERVAL_MILLISECONDS,
) {
  const tally = new RequestTally();
  app.addHook('onRequest', async (request) => {
    request.log.debug({ req: request }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    const milliseconds = reply.elapsedTime;
    tally.record(reply.statusCode, milliseconds);
    const details = { res: reply, responseTime: milliseconds, method: request.method, url: request.url };
    if (reply.statusCode >= 500) request.log.error(details, 'request answered with a server error');
    else request.log.debug(details, 'request completed');
  });
  const timer = setInterval(() => {
    logRequestSummary(app.log, tally);
  }, intervalMilliseconds);
  // The timer alone never keeps the process alive.
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    logRequestSummary(app.log, tally);
  });
  return tally;
}
