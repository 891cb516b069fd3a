/** Test support for the alerting tests: an organisation with followers, signals, stored state. */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { asOwner, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import type { Clock } from '../../lib/clock.js';
import { createLocalFileStorage } from '../../lib/file-storage.js';
import { patientOrganisation } from '../patients/test-support.js';
import { call, logInAs } from '../staff/test-support.js';
import { handleLevelSignal } from './escalation.js';
import type { LevelSignal } from './signals.js';

export { call, logInAs };

/**
 * The patient organisation (centers A and B, operators, doctors; patient A is doctor A's) where
 * patient A has a phone, a login of their own, two emergency followers and one caring follower.
 */
export async function alertOrganisation(testDb: TestDatabase, app: FastifyInstance) {
  const org = await patientOrganisation(testDb);
  const tenantId = org.tenant.id;
  const patientUser = await createTenantUser(testDb.database, tenantId, {
    role: 'PATIENT',
    firstName: 'Anh',
    lastName: 'Nguyen',
  });
  await testDb.database.withTenant(tenantId, (tx) =>
    tx.execute(
      sql`UPDATE patients SET user_id = ${patientUser.id}, phone = '0901000001' WHERE id = ${org.patientA.id}`,
    ),
  );
  const adminToken = await logInAs(app, org.tenant.code, org.admin);
  const followers = [
    { contactType: 'EMERGENCY', name: 'Mai', phone: '0902000001', relationship: 'WIFE', favourite: true },
    { contactType: 'EMERGENCY', name: 'Nam', phone: '0902000002', relationship: 'SON', favourite: false },
    { contactType: 'CARING', name: 'Lan', phone: '0902000003', relationship: 'FRIEND', favourite: false },
  ];
  for (const follower of followers) {
    const response = await call(
      app,
      adminToken,
      'POST',
      `/account/patients/${org.patientA.id}/contacts`,
      follower,
    );
    if (response.statusCode !== 200) throw new Error(`follower not added: ${response.body}`);
  }
  return { ...org, patientUser, adminToken, followers };
}
export type AlertOrganisation = Awaited<ReturnType<typeof alertOrganisation>>;

/** Signals a level for a patient in a whole-tenant transaction, as the status engine does. */
export function signal(
  testDb: TestDatabase,
  clock: Clock,
  fields: Pick<LevelSignal, 'tenantId' | 'patientId' | 'level'> & Partial<LevelSignal>,
) {
  return testDb.database.withTenant(fields.tenantId, (tx) =>
    handleLevelSignal(tx, clock, {
      healthCenterId: null,
      previousStatus: 'NORMAL',
      alertType: 'SPO2',
      vitals: [{ measure: 'SPO2', value: 86, measuredAt: clock.now() }],
      location: null,
      source: 'READING',
      ...fields,
    }),
  );
}

export interface StoredMessage {
  recipient: string;
  channel: string;
  purpose: string;
  body: string;
}

/** Outbox messages linked to a patient (read as the owner, past row level security). */
export function patientOutbox(
  ownerUrl: string,
  patientId: string,
  purpose?: string,
): Promise<StoredMessage[]> {
  return asOwner<StoredMessage>(
    ownerUrl,
    `SELECT m.recipient, m.channel, m.purpose, m.body FROM patient_messages link JOIN outbox_messages m ON m.tenant_id = link.tenant_id AND m.id = link.message_id
      WHERE link.patient_id = $1 AND ($2::text IS NULL OR m.purpose = $2) ORDER BY m.recipient`,
    [patientId, purpose ?? null],
  );
}

/** Waiting graphile-worker jobs of a tenant whose key starts with `prefix`. */
export function waitingJobs(
  ownerUrl: string,
  tenantId: string,
  prefix: string,
): Promise<{ task: string; run_at: Date; payload: { payload: Record<string, unknown> } }[]> {
  return asOwner(
    ownerUrl,
    `SELECT tasks.identifier AS task, jobs.run_at, jobs.payload FROM graphile_worker._private_jobs AS jobs JOIN graphile_worker._private_tasks AS tasks ON tasks.id = jobs.task_id WHERE jobs.key LIKE $1 ORDER BY jobs.run_at`,
    [`${tenantId}:${prefix}%`],
  );
}

/** A WebM recording's first bytes (EBML header) and filler, as MediaRecorder starts a file. */
export const TEST_WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81]),
  Buffer.alloc(1000, 7),
]);

/**
 * An SOS voice recording stored as the upload stores one (bytes in the app's file storage under
 * `dataDir`, the row as the owner), for tests that need one on a case. Returns its id.
 */
export async function storeTestRecording(
  ownerUrl: string,
  dataDir: string,
  target: { tenantId: string; patientId: string; sosCaseId: string },
): Promise<string> {
  const storage = createLocalFileStorage(path.join(dataDir, 'files'));
  const stored = await storage.save(Readable.from([TEST_WEBM]), {
    tenantId: target.tenantId,
    category: 'sosrecordings',
    maxBytes: TEST_WEBM.length,
    accept: ['audio/webm'],
  });
  const id = randomUUID();
  await asOwner(
    ownerUrl,
    `INSERT INTO sos_recordings (tenant_id, id, sos_case_id, patient_id, upload_id, content_type, size_bytes, duration_seconds, storage_key, recorded_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 5, $8, $4, now())`,
    [target.tenantId, id, target.sosCaseId, target.patientId, randomUUID(), stored.contentType, stored.size, stored.key],
  );
  return id;
}
