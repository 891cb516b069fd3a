import { resendAvailableAt, type Contact, type SosCaseSummary, type TicketSummary } from '@rpm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TenantTransaction } from '../../db/database.js';
import {
  healthCenters,
  patients,
  sosCases,
  tickets,
  users,
  type PatientContactRow,
  type SosCaseRow,
  type StoredVital,
  type TicketRow,
} from '../../db/schema.js';

/** Shapes rows into the contracts' answers. */

export const assignees = alias(users, 'assignee');

export const patientRefColumns = {
  patientId: patients.id,
  patientCode: patients.patientCode,
  patientFirstName: patients.firstName,
  patientLastName: patients.lastName,
  patientPhone: patients.phone,
  patientStatus: patients.status,
  centerId: healthCenters.id,
  centerName: healthCenters.name,
  assigneeId: assignees.id,
  assigneeFirstName: assignees.firstName,
  assigneeLastName: assignees.lastName,
};

interface RefColumns {
  patientId: string;
  patientCode: string;
  patientFirstName: string;
  patientLastName: string;
  patientPhone: string | null;
  patientStatus: string;
  centerId: string | null;
  centerName: string | null;
  assigneeId: string | null;
  assigneeFirstName: string | null;
  assigneeLastName: string | null;
}

function refsOf(row: RefColumns) {
  return {
    patient: {
      id: row.patientId,
      patientCode: row.patientCode,
      fullName: `${row.patientFirstName} ${row.patientLastName}`.trim(),
      phone: row.patientPhone,
      status: row.patientStatus as SosCaseSummary['patient']['status'],
    },
    healthCenter:
      row.centerId === null || row.centerName === null ? null : { id: row.centerId, name: row.centerName },
    assignee:
      row.assigneeId === null
        ? null
        : {
            id: row.assigneeId,
            fullName: `${row.assigneeFirstName ?? ''} ${row.assigneeLastName ?? ''}`.trim(),
          },
  };
}

/** sos_cases with the patient (the visibility join), center and assignee. */
export function selectCases(tx: TenantTransaction) {
  return tx
    .select({ sosCase: sosCases, ticketId: tickets.id, ...patientRefColumns })
    .from(sosCases)
    .innerJoin(patients, and(eq(patients.tenantId, sosCases.tenantId), eq(patients.id, sosCases.patientId)))
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
    )
    .leftJoin(
      assignees,
      and(eq(assignees.tenantId, sosCases.tenantId), eq(assignees.id, sosCases.assignedTo)),
    )
    .leftJoin(tickets, and(eq(tickets.tenantId, sosCases.tenantId), eq(tickets.sosCaseId, sosCases.id)));
}
export type CaseJoinRow = Awaited<ReturnType<ReturnType<typeof selectCases>['execute']>>[number];

/** tickets with the patient (the visibility join), center and assignee. */
export function selectTickets(tx: TenantTransaction) {
  return tx
    .select({ ticket: tickets, ...patientRefColumns })
    .from(tickets)
    .innerJoin(patients, and(eq(patients.tenantId, tickets.tenantId), eq(patients.id, tickets.patientId)))
    .leftJoin(
      healthCenters,
      and(eq(healthCenters.tenantId, patients.tenantId), eq(healthCenters.id, patients.healthCenterId)),
    )
    .leftJoin(assignees, and(eq(assignees.tenantId, tickets.tenantId), eq(assignees.id, tickets.assigneeId)));
}
export type TicketJoinRow = Awaited<ReturnType<ReturnType<typeof selectTickets>['execute']>>[number];

export const patientSearchText = sql`concat_ws(' ', ${patients.firstName}, ${patients.lastName}, ${patients.patientCode}, ${patients.phone})`;

export function toCaseSummary(
  row: { sosCase: SosCaseRow; ticketId: string | null } & RefColumns,
): SosCaseSummary {
  const { sosCase } = row;
  return {
    id: sosCase.id,
    status: sosCase.status as SosCaseSummary['status'],
    reason: sosCase.reason,
    source: sosCase.source as SosCaseSummary['source'],
    ...refsOf(row),
    openedAt: sosCase.openedAt.toISOString(),
    kpiDueAt: sosCase.kpiDueAt.toISOString(),
    kpiFailed: sosCase.kpiFailed,
    ticketId: row.ticketId,
  };
}

export function toTicketSummary(row: { ticket: TicketRow } & RefColumns): TicketSummary {
  const { ticket } = row;
  return {
    id: ticket.id,
    number: ticket.number,
    type: ticket.type as TicketSummary['type'],
    status: ticket.status as TicketSummary['status'],
    title: ticket.title,
    ...refsOf(row),
    currentAction: ticket.currentAction,
    sosAt: ticket.sosAt?.toISOString() ?? null,
    kpiDueAt: ticket.kpiDueAt.toISOString(),
    kpiFailureReason: ticket.kpiFailureReason as TicketSummary['kpiFailureReason'],
    kpiRating: ticket.kpiRating,
    customerRating: ticket.customerRating,
    createdAt: ticket.createdAt.toISOString(),
    closedAt: ticket.closedAt?.toISOString() ?? null,
  };
}

/** A contact as the API shows it; `followerName` is the confirmed account's name where the caller may see it. */
export function toContact(row: PatientContactRow, followerName?: string): Contact {
  return {
    id: row.id,
    patientId: row.patientId,
    contactType: row.contactType as Contact['contactType'],
    name: row.name,
    phone: row.phone,
    relationship: row.relationship as Contact['relationship'],
    invitationStatus: row.invitationStatus as Contact['invitationStatus'],
    favourite: row.favourite,
    follower: row.followerUserId === null ? null : { userId: row.followerUserId, name: followerName ?? '' },
    hiddenKinds: row.hiddenKinds as Contact['hiddenKinds'],
    lastSentAt: row.lastSentAt.toISOString(),
    resendAvailableAt:
      row.invitationStatus === 'SENT' || row.invitationStatus === 'RESENT'
        ? resendAvailableAt(row.lastSentAt).toISOString()
        : null,
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export const toVitals = (vitals: StoredVital[]) =>
  vitals.map((vital) => ({
    measure: vital.measure,
    value: vital.value,
    measuredAt: new Date(vital.measuredAt).toISOString(),
  }));

export const locationOf = (row: { locationLat: number | null; locationLng: number | null }) =>
  row.locationLat === null || row.locationLng === null
    ? null
    : { lat: row.locationLat, lng: row.locationLng };

/** Names of the actors of history rows (users the transaction sees; others stay unnamed). */
export async function actorNames(
  tx: TenantTransaction,
  ids: (string | null)[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.execute<{ id: string; name: string }>(
    sql`SELECT id, first_name || ' ' || last_name AS name FROM users WHERE id = ANY(${`{${wanted.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.rows.map((row) => [row.id, row.name]));
}
