import {
  completionRateOf,
  SCHEDULE_REPORT_MAX_DAYS,
  type ScheduleReport,
  type ScheduleReportDoctor,
  type ScheduleReportFigures,
  type ScheduleReportPeriod,
  type ScheduleReportPeriodRow,
  type ScheduleReportQuery,
} from '@rpm/contracts';
import { Temporal } from 'temporal-polyfill';
import { withCaller } from '../../db/caller.js';
import { AppError } from '../../http/app-error.js';
import * as reportStore from './report-store.js';
import { workingPeriodsOf, type ScheduleEnvironment } from './service.js';
import { calendarSchedules } from './store.js';

/**
 * The doctor schedule statistical report (spec §2): per doctor and per period, the hours of its
 * approved schedules and what became of the appointments starting in the period. Periods are the
 * doctor's local days (its account's time zone): a working period counts for the time it overlaps
 * the period's days, in elapsed minutes. Doctors see their own report; admins with
 * appointment.approve see the doctors of the centers they see (the database's rule).
 */

interface Bucket {
  start: string;
  end: string;
}

const plain = (date: string) => Temporal.PlainDate.from(date);
const minDate = (a: string, b: string) => (a < b ? a : b);

/** The periods from `from` to `to`: days, ISO weeks (Monday to Sunday) or months, cut at both ends. */
export function reportBuckets(from: string, to: string, period: ScheduleReportPeriod): Bucket[] {
  const buckets: Bucket[] = [];
  let cursor = plain(from);
  const last = plain(to);
  while (Temporal.PlainDate.compare(cursor, last) <= 0) {
    const end =
      period === 'day'
        ? cursor
        : period === 'week'
          ? cursor.add({ days: 7 - cursor.dayOfWeek })
          : cursor.with({ day: cursor.daysInMonth });
    buckets.push({ start: cursor.toString(), end: minDate(end.toString(), to) });
    cursor = end.add({ days: 1 });
  }
  return buckets;
}

const emptyCounts = () => ({
  scheduledMinutes: 0,
  booked: 0,
  completed: 0,
  cancelled: 0,
  noShows: 0,
  open: 0,
});
type Counts = ReturnType<typeof emptyCounts>;

const figuresOf = (counts: Counts): ScheduleReportFigures => ({
  ...counts,
  completionRate: completionRateOf(counts),
});

function add(into: Counts, from: Counts): void {
  into.scheduledMinutes += from.scheduledMinutes;
  into.booked += from.booked;
  into.completed += from.completed;
  into.cancelled += from.cancelled;
  into.noShows += from.noShows;
  into.open += from.open;
}

const startOfDay = (date: string, timeZone: string) =>
  plain(date).toZonedDateTime({ timeZone }).epochMilliseconds;

/** GET /account/schedules/report. */
export function scheduleReport(
  environment: ScheduleEnvironment,
  query: ScheduleReportQuery,
): Promise<ScheduleReport> {
  const { auth } = environment;
  const { from, to, period } = query;
  if (from > to || plain(from).until(plain(to)).days > SCHEDULE_REPORT_MAX_DAYS)
    throw new AppError('schedule.reportRange');
  // An admin deciding schedules reports on any doctor it sees; a doctor only on itself.
  const doctorId = auth.permissions.has('appointment.approve') ? (query.doctorId ?? null) : auth.userId;
  const buckets = reportBuckets(from, to, period);
  const bucketOfDay = new Map<string, number>();
  buckets.forEach((bucket, index) => {
    for (let day = plain(bucket.start); day.toString() <= bucket.end; day = day.add({ days: 1 }))
      bucketOfDay.set(day.toString(), index);
  });

  return withCaller(environment.database, auth, async (tx) => {
    const now = environment.clock.now();
    const doctors = await reportStore.reportDoctors(tx, { from, to, doctorId });
    const ids = doctors.map((doctor) => doctor.id);
    // A day either side: a schedule's zone may differ from its doctor's.
    const around = {
      from: plain(from).subtract({ days: 1 }).toString(),
      to: plain(to).add({ days: 1 }).toString(),
    };
    const schedules = (
      await calendarSchedules(tx, { ...around, doctorId: doctorId ?? undefined, withPending: false })
    ).filter((row) => row.status === 'APPROVED' && ids.includes(row.doctor_id));
    const days = await reportStore.appointmentDays(tx, { from, to, doctors: ids, now });

    const countsOf = new Map(doctors.map((doctor) => [doctor.id, buckets.map(emptyCounts)]));
    for (const working of workingPeriodsOf(schedules, around.from, around.to)) {
      const doctor = doctors.find((candidate) => candidate.id === working.schedule.doctor_id);
      const counts = countsOf.get(working.schedule.doctor_id);
      if (doctor === undefined || counts === undefined) continue;
      const zone = doctor.time_zone;
      const localDay = (at: number) =>
        Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(zone).toPlainDate().toString();
      const startAt = working.startAt.getTime();
      const endAt = working.endAt.getTime();
      const lastDay = localDay(endAt - 1);
      for (let day = plain(localDay(startAt)); day.toString() <= lastDay; day = day.add({ days: 1 })) {
        const index = bucketOfDay.get(day.toString());
        const bucket = index === undefined ? undefined : counts[index];
        if (bucket === undefined) continue;
        const dayStart = day.toZonedDateTime({ timeZone: zone }).epochMilliseconds;
        const dayEnd = startOfDay(day.add({ days: 1 }).toString(), zone);
        const overlap = Math.min(endAt, dayEnd) - Math.max(startAt, dayStart);
        if (overlap > 0) bucket.scheduledMinutes += overlap / 60_000;
      }
    }
    for (const row of days) {
      const index = bucketOfDay.get(row.day);
      const bucket = index === undefined ? undefined : countsOf.get(row.doctor_id)?.[index];
      if (bucket === undefined) continue;
      bucket.booked += row.booked;
      bucket.completed += row.completed;
      bucket.cancelled += row.cancelled;
      bucket.noShows += row.no_shows;
      bucket.open += row.booked - row.completed - row.cancelled - row.no_shows;
    }

    const overall = buckets.map(emptyCounts);
    const overallTotals = emptyCounts();
    const reports: ScheduleReportDoctor[] = doctors.map((doctor) => {
      const counts = countsOf.get(doctor.id) ?? [];
      const totals = emptyCounts();
      const periods: ScheduleReportPeriodRow[] = buckets.map((bucket, index) => {
        const bucketCounts = counts[index] ?? emptyCounts();
        bucketCounts.scheduledMinutes = Math.round(bucketCounts.scheduledMinutes);
        add(totals, bucketCounts);
        const sum = overall[index];
        if (sum !== undefined) add(sum, bucketCounts);
        return { ...bucket, ...figuresOf(bucketCounts) };
      });
      add(overallTotals, totals);
      return {
        doctor: { id: doctor.id, fullName: doctor.full_name },
        timeZone: doctor.time_zone,
        periods,
        totals: figuresOf(totals),
      };
    });
    return {
      from,
      to,
      period,
      doctors: reports,
      periods: buckets.map((bucket, index) => ({ ...bucket, ...figuresOf(overall[index] ?? emptyCounts()) })),
      totals: figuresOf(overallTotals),
    };
  });
}
