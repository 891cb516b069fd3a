import { and, desc, eq } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { careRequests } from '../../db/schema.js';

/** The patient app's reads of care requests: SQL only, inside the caller's transaction. */

/** The waiting request for a patient to a doctor (one at most: unique index care_requests_one_waiting). */
export async function waitingPatientRequest(tx: TenantTransaction, patientId: string, doctorId: string) {
  const rows = await tx
    .select({
      id: careRequests.id,
      relation: careRequests.relation,
      requesterId: careRequests.requesterId,
      createdAt: careRequests.createdAt,
    })
    .from(careRequests)
    .where(
      and(
        eq(careRequests.patientId, patientId),
        eq(careRequests.doctorId, doctorId),
        eq(careRequests.kind, 'PATIENT_REQUEST'),
        eq(careRequests.status, 'WAITING'),
      ),
    )
    .orderBy(desc(careRequests.createdAt))
    .limit(1);
  return rows[0];
}
