import { DEFAULT_ALERT_SETTINGS, TICKET_KPI, type AlertSettings, type TicketStatus } from '@rpm/contracts';
import { eq, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import type { TenantTransaction } from '../../db/database.js';
import { alertSettings, sosCaseActions, ticketHistory, tickets, type StoredVital } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { scheduleJob } from '../jobs/queue.js';
import { publishEvent } from '../realtime/publish.js';

/**
 * Writes shared by the automatic flow (signalLevel, jobs) and the console's calls: history rows,
 * ticket creation with its number and KPI timer, the tenant's alert settings.
 */

export const TICKET_KPI_TASK = 'alerts.ticketKpi';

/** The tenant's alert settings (the defaults of contracts when none were saved). */
export async function readAlertSettings(tx: TenantTransaction, tenantId: string): Promise<AlertSettings> {
  const [row] = await tx.select().from(alertSettings).where(eq(alertSettings.tenantId, tenantId)).limit(1);
  if (row === undefined) return DEFAULT_ALERT_SETTINGS;
  return {
    highRiskConfirmSeconds: row.highRiskConfirmSeconds,
    sosKpiMinutes: row.sosKpiMinutes,
    statusSettleMinutes: row.statusSettleMinutes,
  };
}

export async function recordCaseHistory(
  tx: TenantTransaction,
  entry: {
    tenantId: string;
    sosCaseId: string;
    patientId: string;
    kind: string;
    fromStatus?: string | null;
    toStatus?: string | null;
    note?: string;
    actorId?: string | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(sosCaseActions).values({
    tenantId: entry.tenantId,
    id: uuidv7(),
    sosCaseId: entry.sosCaseId,
    patientId: entry.patientId,
    kind: entry.kind,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.toStatus ?? null,
    note: entry.note ?? '',
    actorId: entry.actorId ?? null,
    at: entry.at,
  });
}

export async function recordTicketHistory(
  tx: TenantTransaction,
  entry: {
    tenantId: string;
    ticketId: string;
    patientId: string;
    action: string;
    fromStatus?: TicketStatus | null;
    toStatus?: TicketStatus | null;
    note?: string;
    actorId?: string | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(ticketHistory).values({
    tenantId: entry.tenantId,
    id: uuidv7(),
    ticketId: entry.ticketId,
    patientId: entry.patientId,
    action: entry.action,
    fromStatus: entry.fromStatus ?? null,
    toStatus: entry.toStatus ?? null,
    note: entry.note ?? '',
    actorId: entry.actorId ?? null,
    at: entry.at,
  });
}

export interface NewTicket {
  tenantId: string;
  type: keyof typeof TICKET_KPI;
  title: string;
  description?: string;
  patientId: string;
  healthCenterId: string | null;
  sosCaseId?: string | null;
  assigneeId?: string | null;
  sosAt?: Date | null;
  location?: { lat: number; lng: number } | null;
  healthIndicators?: StoredVital[];
  kpiDueAt?: Date;
  createdBy: string | null;
}

/**
 * Creates a ticket (NEW, or CONFIRMED when it is given a handler at once) with its number, its
 * history and its KPI timer, and publishes ticket.created. SOS tickets take the case's KPI
 * deadline (the SOS case's own timer judges them).
 */
export async function insertTicket(
  tx: TenantTransaction,
  clock: Clock,
  ticket: NewTicket,
): Promise<{ id: string; number: number }> {
  const now = clock.now();
  const numbers = await tx.execute<{ number: number }>(sql`
    INSERT INTO ticket_numbers (tenant_id, next_value) VALUES (${ticket.tenantId}::uuid, 2)
    ON CONFLICT (tenant_id) DO UPDATE SET next_value = ticket_numbers.next_value + 1
    RETURNING next_value - 1 AS number`);
  const number = Number(numbers.rows[0]?.number);
  const id = uuidv7();
  const kpiDueAt = ticket.kpiDueAt ?? new Date(now.getTime() + TICKET_KPI[ticket.type].minutes * 60_000);
  const status: TicketStatus =
    ticket.assigneeId === null || ticket.assigneeId === undefined ? 'NEW' : 'CONFIRMED';
  await tx.insert(tickets).values({
    tenantId: ticket.tenantId,
    id,
    number,
    type: ticket.type,
    status,
    title: ticket.title,
    description: ticket.description ?? '',
    patientId: ticket.patientId,
    sosCaseId: ticket.sosCaseId ?? null,
    assigneeId: ticket.assigneeId ?? null,
    sosAt: ticket.sosAt ?? null,
    locationLat: ticket.location?.lat ?? null,
    locationLng: ticket.location?.lng ?? null,
    healthIndicators: ticket.healthIndicators ?? [],
    kpiDueAt,
    createdBy: ticket.createdBy,
    createdAt: now,
    updatedAt: now,
  });
  const base = {
    tenantId: ticket.tenantId,
    ticketId: id,
    patientId: ticket.patientId,
    actorId: ticket.createdBy,
    at: now,
  };
  await recordTicketHistory(tx, { ...base, action: 'CREATED', toStatus: 'NEW' });
  if (status === 'CONFIRMED')
    await recordTicketHistory(tx, { ...base, action: 'ASSIGN', fromStatus: 'NEW', toStatus: 'CONFIRMED' });
  if (ticket.type !== 'SOS') {
    await scheduleJob(
      tx,
      ticket.tenantId,
      TICKET_KPI_TASK,
      { ticketId: id },
      { runAt: kpiDueAt, jobKey: `ticket-kpi:${id}` },
    );
  }
  await publishEvent(tx, ticket.tenantId, {
    type: 'ticket.created',
    patientId: ticket.patientId,
    healthCenterId: ticket.healthCenterId,
    payload: { ticketId: id, number, type: ticket.type, status, sosCaseId: ticket.sosCaseId ?? null },
  });
  return { id, number };
}
