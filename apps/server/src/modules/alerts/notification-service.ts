import type { AppNotification, NotificationPage, WaitingAlert } from '@rpm/contracts';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { alertReads, alerts } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { withOwnPatient, type OwnPatientEnvironment } from './own-patient.js';
import { readAlertSettings } from './records.js';

/**
 * GET /health/me/alerts/waiting: the newest high-risk alert still waiting for the patient's answer
 * and when the server's escalation goes ahead without one (created + the tenant's confirmation
 * seconds), so an app that starts (or comes back) mid-countdown shows what is left. Audited.
 */
export async function readWaitingAlert(environment: OwnPatientEnvironment): Promise<WaitingAlert> {
  return withOwnPatient(environment, { write: false }, async (tx, patient) => {
    const settings = await readAlertSettings(tx, environment.auth.tenantId);
    const [row] = await tx
      .select({ id: alerts.id, type: alerts.type, createdAt: alerts.createdAt })
      .from(alerts)
      .where(
        and(
          eq(alerts.patientId, patient.id),
          eq(alerts.level, 'HIGH_RISK'),
          eq(alerts.answer, 'NONE'),
          sql`${alerts.status} IN ('OPEN', 'ACKNOWLEDGED')`,
        ),
      )
      .orderBy(desc(alerts.createdAt))
      .limit(1);
    const now = environment.clock.now();
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'ALERT_WAITING_VIEWED',
      patientIds: [patient.id],
      targetId: patient.id,
      details: { alertId: row?.id ?? null },
    });
    return {
      alert:
        row === undefined
          ? null
          : {
              id: row.id,
              type: row.type as NonNullable<WaitingAlert['alert']>['type'],
              createdAt: row.createdAt.toISOString(),
              deadline: new Date(row.createdAt.getTime() + settings.highRiskConfirmSeconds * 1000).toISOString(),
            },
      confirmSeconds: settings.highRiskConfirmSeconds,
      now: now.toISOString(),
    };
  });
}

async function unreadCount(tx: TenantTransaction, patientId: string): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(alerts)
    .leftJoin(alertReads, and(eq(alertReads.tenantId, alerts.tenantId), eq(alertReads.alertId, alerts.id)))
    .where(and(eq(alerts.patientId, patientId), sql`${alertReads.alertId} IS NULL`));
  return row?.total ?? 0;
}

/**
 * GET /health/me/notifications: the patient's alerts (at risk, high risk, SOS, no data), newest
 * first, each read or unread (spec §3 Notification; §7 inbox, page size 15), with the unread count.
 */
export async function listNotifications(
  environment: OwnPatientEnvironment,
  query: { page: number; size: number },
): Promise<NotificationPage> {
  return withOwnPatient(environment, { write: false }, async (tx, patient) => {
    const rows = await tx
      .select({ alert: alerts, readAt: alertReads.readAt })
      .from(alerts)
      .leftJoin(alertReads, and(eq(alertReads.tenantId, alerts.tenantId), eq(alertReads.alertId, alerts.id)))
      .where(eq(alerts.patientId, patient.id))
      .orderBy(desc(alerts.createdAt), desc(alerts.id))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await tx.select({ total: count() }).from(alerts).where(eq(alerts.patientId, patient.id));
    const items: AppNotification[] = rows.map(({ alert, readAt }) => ({
      id: alert.id,
      type: alert.type as AppNotification['type'],
      level: alert.level as AppNotification['level'],
      status: alert.status as AppNotification['status'],
      source: alert.source as AppNotification['source'],
      sosCaseId: alert.sosCaseId,
      createdAt: alert.createdAt.toISOString(),
      read: readAt !== null,
    }));
    await recordPatientReads(tx, environment.auth.tenantId, environment.audit, {
      action: 'APP_NOTIFICATIONS_VIEWED',
      patientIds: [patient.id],
      targetId: patient.id,
      details: { ...query, shown: items.length },
    });
    return {
      items,
      page: query.page,
      size: query.size,
      total: total?.total ?? 0,
      unread: await unreadCount(tx, patient.id),
    };
  });
}

/**
 * POST /health/me/notifications/read (one, by id: alert.notFound when it is not the patient's)
 * and /read-all (spec §7 notification/read, readAll). Marking twice changes nothing.
 */
export async function markNotificationsRead(
  environment: OwnPatientEnvironment,
  alertId: string | null,
): Promise<{ unread: number }> {
  return withOwnPatient(environment, { write: true }, async (tx, patient) => {
    const now = environment.clock.now();
    const targets = await tx
      .select({ id: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.patientId, patient.id), alertId === null ? undefined : eq(alerts.id, alertId)));
    if (alertId !== null && targets.length === 0) throw new AppError('alert.notFound');
    if (targets.length > 0) {
      await tx
        .insert(alertReads)
        .values(
          targets.map((target) => ({
            tenantId: environment.auth.tenantId,
            alertId: target.id,
            patientId: patient.id,
            readAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    await recordAudit(tx, environment.auth.tenantId, environment.audit, {
      action: 'APP_NOTIFICATION_READ',
      targetType: 'patient',
      targetId: patient.id,
      details: { alertId, all: alertId === null },
      at: now,
    });
    return { unread: await unreadCount(tx, patient.id) };
  });
}
