import { sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../../db/database.js';
import { publishEvent } from '../../realtime/publish.js';

/**
 * Tells the consoles that a patient's SMS changed (SMS and call management refreshes): only
 * messages sent for a patient are listed there, so others need no event.
 */
export async function publishMessageUpdate(tx: TenantTransaction, tenantId: string, messageId: string, status: string): Promise<void> {
  const [link] = await tx
    .execute<{ patient_id: string; health_center_id: string | null; sos_case_id: string | null }>(
      sql`SELECT link.patient_id, p.health_center_id, link.sos_case_id
            FROM patient_messages link JOIN patients p ON p.tenant_id = link.tenant_id AND p.id = link.patient_id
           WHERE link.message_id = ${messageId}::uuid`,
    )
    .then((result) => result.rows);
  if (link === undefined) return;
  await publishEvent(tx, tenantId, {
    type: 'message.updated',
    patientId: link.patient_id,
    healthCenterId: link.health_center_id,
    payload: { kind: 'SMS', id: messageId, status, sosCaseId: link.sos_case_id },
  });
}
