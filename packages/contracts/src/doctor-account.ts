import { z } from 'zod';
import { doctorRequestListQuerySchema } from './doctors.js';

/**
 * A doctor's account over time (spec §4): restoring a deactivated doctor within 30 days, and how
 * far a medical license is from its expiry. Pure rules shared by the server and the console.
 */

const DAY_MS = 86_400_000;

/** Spec §4, §9: a deactivated doctor can be restored for 30 days after the deactivation. */
export const DOCTOR_RESTORE_DAYS = 30;
/** A license expiring within this many days is announced to its doctor. */
export const LICENSE_EXPIRY_NOTICE_DAYS = 30;

/** The last moment a doctor deactivated at `deactivatedAt` can be restored. */
export function restoreDeadlineOf(deactivatedAt: Date): Date {
  return new Date(deactivatedAt.getTime() + DOCTOR_RESTORE_DAYS * DAY_MS);
}

/** Whether a doctor deactivated at `deactivatedAt` can still be restored at `now`. */
export function isRestorable(deactivatedAt: Date, now: Date): boolean {
  return now.getTime() <= restoreDeadlineOf(deactivatedAt).getTime();
}

/** Whole days left to restore (0 on the last day, negative once the period is over). */
export function restoreDaysLeft(deactivatedAt: Date, now: Date): number {
  const left = restoreDeadlineOf(deactivatedAt).getTime() - now.getTime();
  return left >= 0 ? Math.floor(left / DAY_MS) : -Math.ceil(-left / DAY_MS);
}

/**
 * Days from `today` to a license's last valid day, both calendar dates (YYYY-MM-DD): 0 when it
 * expires at the end of today, negative once expired.
 */
export function daysUntilExpiry(expiresOn: string, today: string): number {
  return Math.round((Date.parse(`${expiresOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
}

/** A license that is valid but expires within the notice period. */
export function isExpiringSoon(expiresOn: string, today: string): boolean {
  const days = daysUntilExpiry(expiresOn, today);
  return days >= 0 && days <= LICENSE_EXPIRY_NOTICE_DAYS;
}

/** A deactivated doctor in the restore list (GET /account/admin/deactivated-doctors). */
export const deactivatedDoctorSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  center: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  deactivatedAt: z.iso.datetime(),
  /** The end of a temporary deactivation; null for an indefinite one. */
  disabledUntil: z.iso.datetime().nullable(),
  restoreUntil: z.iso.datetime(),
  /** Whole days left to restore by the server's clock; negative once the period is over. */
  daysLeft: z.number().int(),
  restorable: z.boolean(),
});
export type DeactivatedDoctor = z.infer<typeof deactivatedDoctorSchema>;

/** GET /account/admin/deactivated-doctors: paged, searchable by name, email or phone. */
export const deactivatedDoctorListQuerySchema = doctorRequestListQuerySchema.omit({ kind: true });
export type DeactivatedDoctorListQuery = z.infer<typeof deactivatedDoctorListQuerySchema>;
