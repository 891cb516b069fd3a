import { z } from 'zod';

/**
 * The doctor schedule statistical report (spec §2 doctor schedule: "statistical report"): per
 * doctor and per period (day, ISO week from Monday, or calendar month) between two days, the hours
 * of approved working schedules and what became of the appointments that start in the period.
 * Periods are the doctor's local days (the time zone of the doctor's account); the first and last
 * periods are cut at the dates asked for.
 */

export const SCHEDULE_REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ScheduleReportPeriod = (typeof SCHEDULE_REPORT_PERIODS)[number];

/** At most this many days from the first to the last day asked for (refused as schedule.reportRange). */
export const SCHEDULE_REPORT_MAX_DAYS = 366;

export const scheduleReportQuerySchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  period: z.enum(SCHEDULE_REPORT_PERIODS).default('week'),
  /** One doctor (an admin's pick); a doctor always gets its own report whatever is asked. */
  doctorId: z.uuid().optional(),
});
export type ScheduleReportQuery = z.infer<typeof scheduleReportQuerySchema>;

/** Figures of one period (or of a total). */
export const scheduleReportFiguresSchema = z.object({
  /** Working time of approved schedules, in minutes of elapsed time (a daylight-saving night counts as it passes). */
  scheduledMinutes: z.number().int(),
  /** Appointments starting in the period, whatever became of them. */
  booked: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
  /** Slot ended while the appointment was still UPCOMING (never checked in). */
  noShows: z.number().int(),
  /** Neither completed, cancelled nor a no-show: still to come, or checked in and not finished. */
  open: z.number().int(),
  /** completed / (booked − cancelled − open), as a percentage rounded to one decimal; null when that is 0. */
  completionRate: z.number().nullable(),
});
export type ScheduleReportFigures = z.infer<typeof scheduleReportFiguresSchema>;

export const scheduleReportPeriodSchema = scheduleReportFiguresSchema.extend({
  /** First and last day of the period (cut at the report's dates), yyyy-MM-dd. */
  start: z.iso.date(),
  end: z.iso.date(),
});
export type ScheduleReportPeriodRow = z.infer<typeof scheduleReportPeriodSchema>;

export const scheduleReportDoctorSchema = z.object({
  doctor: z.object({ id: z.uuid(), fullName: z.string() }),
  timeZone: z.string(),
  periods: z.array(scheduleReportPeriodSchema),
  totals: scheduleReportFiguresSchema,
});
export type ScheduleReportDoctor = z.infer<typeof scheduleReportDoctorSchema>;

export const scheduleReportSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  period: z.enum(SCHEDULE_REPORT_PERIODS),
  /** The doctors the caller sees with working hours or appointments in the range, by name. */
  doctors: z.array(scheduleReportDoctorSchema),
  /** Every doctor's figures added up per period (by each doctor's local dates), and in all. */
  periods: z.array(scheduleReportPeriodSchema),
  totals: scheduleReportFiguresSchema,
});
export type ScheduleReport = z.infer<typeof scheduleReportSchema>;

/** completed / (booked − cancelled − open) as a percentage (one decimal), null when nothing was due. */
export function completionRateOf(
  figures: Pick<ScheduleReportFigures, 'booked' | 'completed' | 'cancelled' | 'open'>,
): number | null {
  const due = figures.booked - figures.cancelled - figures.open;
  return due <= 0 ? null : Math.round((figures.completed / due) * 1000) / 10;
}
