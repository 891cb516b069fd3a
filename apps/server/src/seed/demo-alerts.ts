import { RELATIONSHIPS } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../db/database.js';
import { patientContacts } from '../db/schema.js';
import { systemClock } from '../lib/clock.js';
import { handleLevelSignal } from '../modules/alerts/escalation.js';
import { insertTicket } from '../modules/alerts/records.js';
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
      invitationStatus: slot === 1 ? 'SENT' : 'CONFIRMED',
      favourite: slot === 0,
      createdAt: now,
      updatedAt: now,
    })),
  );
  await tx.insert(patientContacts).values(contactRows);

  const byStatus = await tx.execute<{
    id: string;
    status: 'AT_RISK' | 'HIGH_RISK' | 'SOS';
    health_center_id: string | null;
  }>(sql`SELECT id, status, health_center_id FROM patients WHERE status <> 'NORMAL' ORDER BY patient_code`);
  for (const patient of byStatus.rows) {
    await handleLevelSignal(tx, systemClock, {
      tenantId,
      patientId: patient.id,
      healthCenterId: patient.health_center_id,
      level: patient.status,
      previousStatus: 'NORMAL',
      alertType: patient.status === 'SOS' ? 'HEART_RATE' : 'SPO2',
      vitals:
        patient.status === 'SOS'
          ? [
              { measure: 'HEART_RATE', value: 178, measuredAt: now },
              { measure: 'SPO2', value: 86, measuredAt: now },
            ]
          : [{ measure: 'SPO2', value: patient.status === 'HIGH_RISK' ? 91 : 93, measuredAt: now }],
      location: patient.status === 'SOS' ? { lat: 10.7769, lng: 106.7009 } : null,
      source: 'READING',
    });
  }
  // As the status engine would leave them (docs/status-lifecycle.md): the alert episode at the
  // status, and the abnormal readings above as evidence, so they come down after the window of
  // normal readings rather than at the first one.
  const nowMs = now.getTime();
  await tx.execute(sql`
    UPDATE patients
       SET alert_episode_level = status,
           level_evidence = CASE status
             WHEN 'SOS' THEN jsonb_build_object('AT_RISK', ${nowMs}::bigint, 'HIGH_RISK', ${nowMs}::bigint, 'SOS', ${nowMs}::bigint, 'judged', ${nowMs}::bigint)
             WHEN 'HIGH_RISK' THEN jsonb_build_object('AT_RISK', ${nowMs}::bigint, 'HIGH_RISK', ${nowMs}::bigint, 'judged', ${nowMs}::bigint)
             ELSE jsonb_build_object('AT_RISK', ${nowMs}::bigint, 'judged', ${nowMs}::bigint)
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
