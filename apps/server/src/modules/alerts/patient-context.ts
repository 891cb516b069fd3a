import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';

/** What the alerting side needs to know about a patient to decide and to address messages. */
export interface AlertPatient {
  id: string;
  patientCode: string;
  fullName: string;
  phone: string | null;
  email: string | null;
  status: 'NORMAL' | 'AT_RISK' | 'HIGH_RISK' | 'SOS';
  healthCenterId: string | null;
  /** The center's hotline: what followers see calls and SMS come from. */
  hotline: string;
  language: 'en' | 'vi';
  isSubUser: boolean;
  isSuppressed: boolean;
  isActive: boolean;
}

interface PatientContextRow extends Record<string, unknown> {
  id: string;
  patient_code: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  email: string | null;
  status: AlertPatient['status'];
  health_center_id: string | null;
  hotline: string | null;
  language: string | null;
  account_kind: string;
  suppressed: boolean;
  account_state: string;
}

/**
 * The patient as the caller's transaction sees it (undefined outside its visibility). With `lock`,
 * the row is locked: SOS handling for one patient is serialised (one open case per patient).
 */
export async function loadAlertPatient(
  tx: TenantTransaction,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<AlertPatient | undefined> {
  if (options.lock === true) {
    // A lock needs the right to change the row: a follower sees the patient but may change nothing
    // of it (migration 0037), so for it the patient is not there to change.
    const locked = await tx.execute(sql`SELECT 1 FROM patients WHERE id = ${patientId}::uuid FOR UPDATE`);
    if (locked.rows.length === 0) return undefined;
  }
  const result = await tx.execute<PatientContextRow>(sql`
    SELECT p.id, p.patient_code, p.first_name, p.last_name, p.phone, p.email, p.status, p.health_center_id,
           center.hotline, account.language, p.account_kind, p.alerts_suppressed_until_normal AS suppressed, p.account_state
      FROM patients p
      LEFT JOIN health_centers center ON center.tenant_id = p.tenant_id AND center.id = p.health_center_id
      LEFT JOIN users account ON account.tenant_id = p.tenant_id AND account.id = p.user_id
     WHERE p.id = ${patientId}::uuid`);
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    id: row.id,
    patientCode: row.patient_code,
    fullName: `${row.first_name} ${row.last_name}`.trim(),
    phone: row.phone,
    email: row.email,
    status: row.status,
    healthCenterId: row.health_center_id,
    hotline: row.hotline ?? '',
    language: row.language === 'vi' ? 'vi' : 'en',
    isSubUser: row.account_kind === 'SUB_USER',
    isSuppressed: row.suppressed,
    isActive: row.account_state === 'ACTIVE',
  };
}

/** Sets or clears "I am fine": no alert below SOS until the values are normal again (spec §4). */
export async function setAlertsSuppressed(
  tx: TenantTransaction,
  patientId: string,
  suppressed: boolean,
): Promise<void> {
  await tx.execute(
    sql`UPDATE patients SET alerts_suppressed_until_normal = ${suppressed} WHERE id = ${patientId}::uuid`,
  );
}
