import { and, eq, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { healthCenters, patients, type PatientRow } from '../../db/schema.js';

/** A sub-user's holder: the account's name and its own patient record when the caller sees it. */
export interface PatientHolder {
  name: string;
  patientId: string | null;
}

/** A patient with the name of their health center (joins see what the caller sees). */
export interface PatientWithCenter {
  patient: PatientRow;
  centerName: string | null;
  /** A SUB_USER's holder (null for a main account). */
  holder: PatientHolder | null;
}

/**
 * A sub-user's holder (subqueries see what the caller sees): the holder's own patient record, and
 * its name from that record or else from the account.
 */
export const holderColumn = sql<PatientHolder | null>`CASE WHEN ${patients.holderUserId} IS NULL THEN NULL ELSE (
  SELECT json_build_object('patientId', own.id,
           'name', coalesce(own.first_name || ' ' || own.last_name, account.first_name || ' ' || account.last_name, ''))
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT held.id, held.first_name, held.last_name FROM patients held
                        WHERE held.tenant_id = ${patients.tenantId} AND held.user_id = ${patients.holderUserId}
                        ORDER BY held.created_at LIMIT 1) AS own ON true
    LEFT JOIN users account ON account.tenant_id = ${patients.tenantId} AND account.id = ${patients.holderUserId}) END`;

export function selectPatients(tx: TenantTransaction) {
  return tx
    .select({ patient: patients, centerName: healthCenters.name, holder: holderColumn })
    .from(patients)
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
    );
}
