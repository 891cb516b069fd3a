import { RELATIONSHIPS } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { patientContacts } from '../db/schema.js';
import { MINUTE, systemClock } from '../lib/clock.js';
import { handleLevelSignal } from '../modules/alerts/escalation.js';
import { insertTicket } from '../modules/alerts/records.js';
import { insertReadings } from '../modules/vitals/ingest-store.js';
import type { DemoTenantData } from './demo.js';

const NAMES = ['Mai', 'Nam', 'Lan', 'Tuan', 'Hoa', 'Minh', 'Thu', 'Long'] as const;

/**
 * Alerting demo data: followers for the first patients, open SOS cases for the patients in SOS
 * (raised as the status engine raises them: alerts, tickets, follower calls and SMS, care-team
 * messages, KPI timers), alerts for at-risk patients and a few operator tickets.
 */
export async function seedDemoAlerts(tx: TenantTransaction, data: DemoTenantData): Promise<void> {
  const { tenantId } = data;
  const now = systemClock.now();
  const contactRows = data.patients.slice(0, 16).flatMap((patient, index) =>
    [0, 1, 2].map((slot) => ({
      tenantId,
      id: uuidv7(),
      patientId: patient.id,
      contactType: slot < 2 ? 'EMERGENCY' : 'CARING',
      name: NAMES[(index + slot) % NAMES.length] ?? 'Mai',
      phone: `0912${String(index).padStart(3, '0')}${String(slot).padStart(3, '0')}`,
      relationship: RELATIONSHIPS[(index + slot) % RELATIONSHIPS.length] ?? 'OTHER',
      // Invitations not answered yet: a confirmed follower is an app account that accepted one.
      invitationStatus: slot === 2 ? 'RESENT' : 'SENT',
      favourite: slot === 0,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await tx.insert(patientContacts).values(contactRows);

  // The readings behind the seeded statuses, measured 20 minutes before seeding (at :30 s, where a
  // simulated watch, which measures on the minute, never writes): SpO2 93 % for an at-risk patient,
  // 91 % for a high-risk one; heart rate 178 and SpO2 86 % for a patient in SOS, then normal values
  // ten minutes later (the open case holds the SOS status; closing it brings the patient to NORMAL).
  // A patient without a simulated watch keeps a status below SOS until staff act on it: a silent
  // watch proves nothing (docs/decisions.md).
  const measuredAt = new Date(now.getTime() - 20 * MINUTE + 30_000);
  const normalAgainAt = new Date(measuredAt.getTime() + 10 * MINUTE);
  const byStatus = await tx.execute<{
    id: string;
    status: 'AT_RISK' | 'HIGH_RISK' | 'SOS';
    health_center_id: string | null;
  }>(sql`SELECT id, status, health_center_id FROM patients WHERE status <> 'NORMAL' ORDER BY patient_code`);
  for (const patient of byStatus.rows) {
    const vitals: { measure: 'HEART_RATE' | 'SPO2'; value: number; measuredAt: Date }[] =
      patient.status === 'SOS'
        ? [
            { measure: 'HEART_RATE', value: 178, measuredAt },
            { measure: 'SPO2', value: 86, measuredAt },
          ]
        : [{ measure: 'SPO2', value: patient.status === 'HIGH_RISK' ? 91 : 93, measuredAt }];
    const afterwards =
      patient.status === 'SOS'
        ? [
            { measure: 'HEART_RATE' as const, value: 84, measuredAt: normalAgainAt },
            { measure: 'SPO2' as const, value: 96, measuredAt: normalAgainAt },
          ]
        : [];
    await insertReadings(
      tx,
      { tenantId, patientId: patient.id, deviceId: null, batchId: null, receivedAt: now },
      [...vitals, ...afterwards].map((reading, item) => ({
        ...reading,
        source: 'WIRELESS_DEVICE',
        item,
        late: false,
      })),
    );
    await handleLevelSignal(tx, systemClock, {
      tenantId,
      patientId: patient.id,
      healthCenterId: patient.health_center_id,
      level: patient.status,
      previousStatus: 'NORMAL',
      alertType: patient.status === 'SOS' ? 'HEART_RATE' : 'SPO2',
      vitals,
      location: patient.status === 'SOS' ? { lat: 10.7769, lng: 106.7009 } : null,
      source: 'READING',
    });
  }
  // As the status engine would leave them (docs/status-lifecycle.md): the alert episode at the
  // status, and the readings above as evidence (the abnormal one, and the latest judged), so a
  // watched patient comes down after the window of normal readings rather than at the first one.
  const abnormalMs = measuredAt.getTime();
  const normalMs = normalAgainAt.getTime();
  await tx.execute(sql`
    UPDATE patients
       SET alert_episode_level = status,
           level_evidence = CASE status
             WHEN 'SOS' THEN jsonb_build_object('AT_RISK', ${abnormalMs}::bigint, 'HIGH_RISK', ${abnormalMs}::bigint, 'SOS', ${abnormalMs}::bigint, 'judged', ${normalMs}::bigint)
             WHEN 'HIGH_RISK' THEN jsonb_build_object('AT_RISK', ${abnormalMs}::bigint, 'HIGH_RISK', ${abnormalMs}::bigint, 'judged', ${abnormalMs}::bigint)
             ELSE jsonb_build_object('AT_RISK', ${abnormalMs}::bigint, 'judged', ${abnormalMs}::bigint)
           END
     WHERE status <> 'NORMAL'`);

  const operator = data.staff.OPERATOR ?? null;
  const tickets = [
    { type: 'CONSULTATION', title: 'Blood pressure review', assigneeId: operator },
    { type: 'SUPPORT', title: 'Watch does not sync', assigneeId: null },
    { type: 'ALERT', title: 'Repeated low SpO2 at night', assigneeId: operator },
  ] as const;
  for (const [index, ticket] of tickets.entries()) {
    const patient = data.patients[index + 2];
    if (patient === undefined) continue;
    await insertTicket(tx, systemClock, {
      tenantId,
      type: ticket.type,
      title: ticket.title,
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      assigneeId: ticket.assigneeId,
      createdBy: operator,
    });
  }
}
