import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { doctorSchedules } from '../db/schema.js';
import type { DemoTenantData } from './demo.js';

const DAY = 24 * 60 * 60 * 1000;
const dateIn = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/**
 * The demo doctor's working hours: weekday mornings for the next eight weeks, approved by the
 * main admin, and a Saturday morning it has asked for and the admins have yet to decide on, so
 * both the doctor's calendar and the approval screen have something to show.
 */
export async function seedDemoSchedules(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const doctorId = data.staff.DOCTOR;
  const approverId = data.staff.MAIN_ADMIN ?? null;
  if (doctorId === undefined) return;
  const found = await tx.execute<{ health_center_id: string | null; time_zone: string }>(
    sql`SELECT health_center_id, time_zone FROM users WHERE id = ${doctorId}::uuid`,
  );
  const doctor = found.rows[0];
  if (doctor === undefined) return;
  const now = new Date();
  const daysToSaturday = (6 - new Date(`${dateIn(0)}T00:00:00Z`).getUTCDay() + 7) % 7 || 7;
  const saturday = dateIn(daysToSaturday);
  const base = {
    tenantId: data.tenantId,
    doctorId,
    healthCenterId: doctor.health_center_id,
    timeZone: doctor.time_zone,
    slotMinutes: 30,
    requestedAt: new Date(now.getTime() - 3 * DAY),
  };
  await tx.insert(doctorSchedules).values([
    {
      ...base,
      id: uuidv7(),
      kind: 'WEEKLY',
      startDate: dateIn(-1),
      endDate: dateIn(55),
      weekdays: [1, 2, 3, 4, 5],
      startTime: '08:00',
      endTime: '11:30',
      note: 'Weekday mornings at the clinic',
      status: 'APPROVED',
      decidedBy: approverId,
      decidedAt: new Date(now.getTime() - 2 * DAY),
    },
    {
      ...base,
      id: uuidv7(),
      kind: 'SINGLE',
      startDate: saturday,
      endDate: saturday,
      weekdays: [6],
      startTime: '09:00',
      endTime: '11:00',
      note: 'Extra Saturday clinic',
      status: 'NEW',
      requestedAt: new Date(now.getTime() - DAY),
    },
  ]);
}
