import type { Alert, AlertSettings, MessageEntry, MessageListQuery, SosMessageChoice } from '@rpm/contracts';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { alerts, alertSettings } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { cancelJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';
import { withCaller } from '../../db/caller.js';
import { assertProfileMayRaiseSos, assertProfileWritable, resolveProfile } from '../followers/profile.js';
import { asCaller, requirePatient, type AlertEnvironment } from './environment.js';
import { callFollowers, findWaitingHighRiskAlert, highRiskJobKey } from './escalation.js';
import { loadAlertPatient, setAlertsSuppressed, type AlertPatient } from './patient-context.js';
import { readAlertSettings, recordCaseHistory } from './records.js';
import { raiseSos, type Page } from './sos-service.js';
import { toVitals } from './views.js';

function toAlert(row: typeof alerts.$inferSelect): Alert {
  return {
    id: row.id,
    patientId: row.patientId,
    type: row.type as Alert['type'],
    level: row.level as Alert['level'],
    status: row.status as Alert['status'],
    source: row.source as Alert['source'],
    values: toVitals(row.measureValues),
    sosCaseId: row.sosCaseId,
    createdAt: row.createdAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

/** A patient's alerts, newest first (the caller must see the patient). A PHI read, audited. */
export async function listPatientAlerts(
  environment: AlertEnvironment,
  patientId: string,
  query: { page: number; size: number; status?: string | undefined; type?: string | undefined },
): Promise<Page<Alert>> {
  return asCaller(environment, async (tx) => {
    await requirePatient(tx, patientId);
    const where = and(
      eq(alerts.patientId, patientId),
      query.status === undefined ? undefined : eq(alerts.status, query.status),
      query.type === undefined ? undefined : eq(alerts.type, query.type),
    );
    const rows = await tx
      .select()
      .from(alerts)
      .where(where)
      .orderBy(desc(alerts.createdAt), desc(alerts.id))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(alerts).where(where);
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'PATIENT_ALERTS_VIEWED',
      patientIds: [patientId],
      targetId: patientId,
      details: { ...query, shown: rows.length },
    });
    return { items: rows.map(toAlert), page: query.page, size: query.size, total: total?.total ?? 0 };
  });
}

/**
 * The patient app's own calls run for the signed-in patient's record (or the profile it chose:
 * followers/profile.ts, resolved in the caller's view), then in their tenant, since answering
 * and escalating touch rows the patient does not see. A followed patient's profile is read only
 * (profile.readOnly); `sos` calls are the account's own record's (a sub-user: sosCase.subUser).
 * Staff accounts have no patient record: alert.noPatientProfile.
 */
async function asOwnPatient<T>(
  environment: AlertEnvironment,
  kind: 'answer' | 'sos',
  work: (tx: TenantTransaction, patient: AlertPatient) => Promise<T>,
): Promise<T> {
  const profile = await withCaller(environment.database, environment.auth, (tx) => resolveProfile(tx, environment.auth));
  if (profile === undefined) throw new AppError('alert.noPatientProfile');
  if (kind === 'sos') assertProfileMayRaiseSos(profile);
  else assertProfileWritable(profile);
  const result = await environment.database.withTenant(environment.auth.tenantId, async (tx) => {
    const patient = await loadAlertPatient(tx, profile.patientId, { lock: true });
    // Only an active record answers (a deleted account has no profile left to act on).
    if (!patient?.isActive) throw new AppError('alert.noPatientProfile');
    return work(tx, patient);
  });
  environment.kick();
  return result;
}

/**
 * "I am fine" (spec §4): the waiting high-risk alert is answered and its timer cancelled, and no
 * alert below SOS is raised until the values are normal again.
 */
export async function confirmFine(environment: AlertEnvironment) {
  return asOwnPatient(environment, 'answer', async (tx, patient) => {
    const alert = await findWaitingHighRiskAlert(tx, patient.id);
    if (alert !== undefined) {
      await tx
        .update(alerts)
        .set({
          answer: 'CONFIRMED_FINE',
          status: 'RESOLVED',
          resolvedAt: environment.clock.now(),
          resolvedBy: environment.auth.userId,
        })
        .where(eq(alerts.id, alert.id));
      await publishEvent(tx, environment.auth.tenantId, {
        type: 'alert.updated',
        patientId: patient.id,
        healthCenterId: patient.healthCenterId,
        payload: { alertId: alert.id, answer: 'CONFIRMED_FINE' },
      });
    }
    await cancelJob(tx, highRiskJobKey(patient.id));
    await setAlertsSuppressed(tx, patient.id, true);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'ALERT_CONFIRMED_FINE',
      targetType: 'patient',
      targetId: patient.id,
      details: { alertId: alert?.id ?? null },
    });
    return { state: 'CONFIRMED_FINE' as const, smsSent: 0, callsPlaced: 0 };
  });
}

/** "Call followers" (spec §4): every follower is called at once; the timer is no longer needed. */
export async function requestFollowerCalls(environment: AlertEnvironment) {
  return asOwnPatient(environment, 'sos', async (tx, patient) => {
    const alert = await findWaitingHighRiskAlert(tx, patient.id);
    if (alert !== undefined) {
      await tx.update(alerts).set({ answer: 'CALLING_FOLLOWERS' }).where(eq(alerts.id, alert.id));
    }
    await cancelJob(tx, highRiskJobKey(patient.id));
    const callsPlaced = await callFollowers(tx, environment.clock, environment.auth.tenantId, patient);
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'ALERT_FOLLOWERS_CALLED',
      targetType: 'patient',
      targetId: patient.id,
      details: { alertId: alert?.id ?? null, callsPlaced },
    });
    await publishEvent(tx, environment.auth.tenantId, {
      type: 'message.updated',
      patientId: patient.id,
      healthCenterId: patient.healthCenterId,
      payload: { kind: 'CALL', count: callsPlaced },
    });
    return { state: 'CALLING_FOLLOWERS' as const, smsSent: 0, callsPlaced };
  });
}

/** The patient app's SOS (after the SOS button's countdown, or a fall the phone detected). */
export async function raiseOwnSos(
  environment: AlertEnvironment,
  input: {
    source: 'SOS_BUTTON' | 'FALL' | 'HOTLINE_CALL';
    location?: { lat: number; lng: number } | null | undefined;
    message?: SosMessageChoice | null | undefined;
  },
) {
  return asOwnPatient(environment, 'sos', async (tx, patient) => {
    const sosCaseId = await raiseSos(tx, environment.clock, environment.auth.tenantId, patient, {
      source: input.source,
      location: input.location ?? null,
      actorId: null,
      note: '',
    });
    // The message the patient chose (spec §2 SOS message choice): a code the console translates.
    if (input.message !== undefined && input.message !== null) {
      await recordCaseHistory(tx, {
        tenantId: environment.auth.tenantId,
        sosCaseId,
        patientId: patient.id,
        kind: 'PATIENT_MESSAGE',
        note: input.message,
        actorId: environment.auth.userId,
        at: environment.clock.now(),
      });
    }
    return { sosCaseId };
  });
}

export async function readSettings(environment: AlertEnvironment): Promise<AlertSettings> {
  return asCaller(environment, (tx) => readAlertSettings(tx, environment.auth.tenantId));
}

export async function updateSettings(
  environment: AlertEnvironment,
  input: AlertSettings,
): Promise<AlertSettings> {
  return asCaller(environment, async (tx) => {
    const now = environment.clock.now();
    const values = {
      highRiskConfirmSeconds: input.highRiskConfirmSeconds,
      sosKpiMinutes: input.sosKpiMinutes,
      ...(input.statusSettleMinutes === undefined ? {} : { statusSettleMinutes: input.statusSettleMinutes }),
      updatedAt: now,
      updatedBy: environment.auth.userId,
    };
    await tx
      .insert(alertSettings)
      .values({ tenantId: environment.auth.tenantId, ...values })
      .onConflictDoUpdate({ target: alertSettings.tenantId, set: values });
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'ALERT_SETTINGS_UPDATED',
      targetType: 'tenant',
      targetId: environment.auth.tenantId,
      details: { ...input },
    });
    return readAlertSettings(tx, environment.auth.tenantId);
  });
}

interface MessageRow extends Record<string, unknown> {
  id: string;
  kind: MessageEntry['kind'];
  from_number: string;
  to_number: string;
  to_name: string;
  provider: string | null;
  status: MessageEntry['status'];
  purpose: string;
  sent_at: Date;
  patient_id: string;
  patient_code: string;
  patient_name: string;
  sos_case_id: string | null;
}

/**
 * SMS and call management (spec §2, §3 SMS or call): the outbox messages sent for patients and
 * the voice calls, as one list (from, to, provider, send date, status), within the caller's centers.
 */
export async function listMessages(
  environment: AlertEnvironment,
  query: MessageListQuery,
): Promise<Page<MessageEntry>> {
  return asCaller(environment, async (tx) => {
    const conditions: SQL[] = [];
    if (query.kind !== undefined) conditions.push(sql`entry.kind = ${query.kind}`);
    if (query.status !== undefined) conditions.push(sql`entry.status = ${query.status}`);
    if (query.from !== undefined) conditions.push(sql`entry.sent_at >= ${query.from}::date`);
    if (query.to !== undefined) conditions.push(sql`entry.sent_at < (${query.to}::date + 1)`);
    if (query.search !== undefined && query.search !== '') {
      const pattern = `%${query.search.replace(/[%_\\]/g, '\\$&')}%`;
      conditions.push(
        sql`(entry.to_number ILIKE ${pattern} OR entry.to_name ILIKE ${pattern} OR entry.patient_name ILIKE ${pattern} OR entry.patient_code ILIKE ${pattern})`,
      );
    }
    const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`;
    const entries = sql`
      (SELECT message.id, message.channel AS kind, link.from_number, message.recipient AS to_number, link.to_name, message.provider,
              message.status, message.purpose, coalesce(message.sent_at, message.created_at) AS sent_at,
              p.id AS patient_id, p.patient_code, p.first_name || ' ' || p.last_name AS patient_name, link.sos_case_id
         FROM patient_messages link
         JOIN outbox_messages message ON message.tenant_id = link.tenant_id AND message.id = link.message_id
         JOIN patients p ON p.tenant_id = link.tenant_id AND p.id = link.patient_id
       UNION ALL
       SELECT c.id, 'CALL', c.from_number, c.to_number, c.to_name, c.provider, c.status, c.purpose, coalesce(c.started_at, c.created_at),
              p.id, p.patient_code, p.first_name || ' ' || p.last_name, c.sos_case_id
         FROM calls c
         JOIN patients p ON p.tenant_id = c.tenant_id AND p.id = c.patient_id) entry`;
    const direction = query.sortType === 'asc' ? sql`ASC` : sql`DESC`;
    const rows = await tx.execute<MessageRow>(
      sql`SELECT * FROM ${entries} ${where} ORDER BY entry.sent_at ${direction}, entry.id ${direction} LIMIT ${query.size} OFFSET ${query.page * query.size}`,
    );
    const totals = await tx.execute<{ total: number }>(
      sql`SELECT count(*)::int AS total FROM ${entries} ${where}`,
    );
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'PATIENT_MESSAGES_LISTED',
      targetType: 'message',
      patientIds: rows.rows.map((row) => row.patient_id),
      details: { ...query, shown: rows.rows.length },
    });
    return {
      items: rows.rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        from: row.from_number,
        to: row.to_number,
        toName: row.to_name,
        provider: row.provider,
        status: row.status,
        purpose: row.purpose,
        sentAt: new Date(row.sent_at).toISOString(),
        patient: { id: row.patient_id, patientCode: row.patient_code, fullName: row.patient_name },
        sosCaseId: row.sos_case_id,
      })),
      page: query.page,
      size: query.size,
      total: totals.rows[0]?.total ?? 0,
    };
  });
}
