import type { ConnectionHistoryQuery, PhoneHistoryQuery } from '@rpm/contracts';
import { and, asc, count, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTransaction } from '../../db/database.js';
import { deviceConnectionHistory, devices, phoneHistory } from '../../db/schema.js';

/** Names as people read them: case and accents aside, digits by value. */
const byText = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;
const escapeLike = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;
const sameUsername = (
  column: typeof deviceConnectionHistory.username | typeof phoneHistory.username,
  username: string,
) => sql`lower(${column}) = lower(${username})`;

// Connection history ------------------------------------------------------------------------------

export type ConnectionHistoryFilter = Omit<
  ConnectionHistoryQuery,
  'page' | 'size' | 'sortField' | 'sortType'
>;

function connectionConditions(filter: ConnectionHistoryFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.username !== undefined)
    conditions.push(sameUsername(deviceConnectionHistory.username, filter.username));
  if (filter.deviceId !== undefined) conditions.push(eq(deviceConnectionHistory.deviceId, filter.deviceId));
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(deviceConnectionHistory.deviceName, pattern),
        ilike(devices.macAddress, pattern),
        ilike(deviceConnectionHistory.phoneName, pattern),
        ilike(deviceConnectionHistory.appVersion, pattern),
      ),
    );
  }
  if (filter.status !== undefined) conditions.push(eq(deviceConnectionHistory.status, filter.status));
  if (filter.model !== undefined) conditions.push(eq(deviceConnectionHistory.model, filter.model));
  if (filter.start !== undefined)
    conditions.push(gte(deviceConnectionHistory.connectedAt, new Date(filter.start)));
  if (filter.end !== undefined)
    conditions.push(lte(deviceConnectionHistory.connectedAt, new Date(filter.end)));
  return and(...conditions);
}

function connectionOrder(
  sortField: ConnectionHistoryQuery['sortField'],
  sortType: ConnectionHistoryQuery['sortType'],
): SQL[] {
  const direction = sortType === 'desc' ? desc : asc;
  const columns = {
    connectedAt: deviceConnectionHistory.connectedAt,
    disconnectedAt: deviceConnectionHistory.disconnectedAt,
    deviceName: deviceConnectionHistory.deviceName,
    model: deviceConnectionHistory.model,
    status: deviceConnectionHistory.status,
    appVersion: deviceConnectionHistory.appVersion,
    phoneName: deviceConnectionHistory.phoneName,
  } as const;
  const isText =
    sortField === 'deviceName' ||
    sortField === 'model' ||
    sortField === 'appVersion' ||
    sortField === 'phoneName';
  const key = isText ? sql`lower(${columns[sortField]})` : sql`${columns[sortField]}`;
  const primary = sql`${key} ${sql.raw(sortType === 'desc' ? 'DESC' : 'ASC')} NULLS LAST`;
  return [primary, direction(deviceConnectionHistory.connectedAt), direction(deviceConnectionHistory.id)];
}

export async function listConnectionHistory(tx: TenantTransaction, query: ConnectionHistoryQuery) {
  const where = connectionConditions(query);
  const items = await tx
    .select({ history: deviceConnectionHistory, macAddress: devices.macAddress })
    .from(deviceConnectionHistory)
    .innerJoin(
      devices,
      and(
        eq(devices.tenantId, deviceConnectionHistory.tenantId),
        eq(devices.id, deviceConnectionHistory.deviceId),
      ),
    )
    .where(where)
    .orderBy(...connectionOrder(query.sortField, query.sortType))
    .limit(query.size)
    .offset(query.page * query.size);
  const totals = await tx
    .select({ total: count() })
    .from(deviceConnectionHistory)
    .innerJoin(
      devices,
      and(
        eq(devices.tenantId, deviceConnectionHistory.tenantId),
        eq(devices.id, deviceConnectionHistory.deviceId),
      ),
    )
    .where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** Distinct device names seen in connection histories (of one account, or every visible one). */
export async function deviceNames(tx: TenantTransaction, username: string | undefined): Promise<string[]> {
  const rows = await tx
    .selectDistinct({ name: deviceConnectionHistory.deviceName })
    .from(deviceConnectionHistory)
    .where(
      and(
        username === undefined ? undefined : sameUsername(deviceConnectionHistory.username, username),
        sql`${deviceConnectionHistory.deviceName} <> ''`,
      ),
    )
    .orderBy(asc(deviceConnectionHistory.deviceName))
    .limit(500);
  return rows.map((row) => row.name).sort(byText);
}

// Phone history ---------------------------------------------------------------------------------

export type PhoneHistoryFilter = Omit<PhoneHistoryQuery, 'page' | 'size' | 'sort'>;

function phoneConditions(filter: PhoneHistoryFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.username !== undefined) conditions.push(sameUsername(phoneHistory.username, filter.username));
  if (filter.search) {
    const pattern = escapeLike(filter.search);
    conditions.push(
      or(
        ilike(phoneHistory.username, pattern),
        ilike(phoneHistory.phoneName, pattern),
        ilike(phoneHistory.osVersion, pattern),
        ilike(phoneHistory.appVersion, pattern),
      ),
    );
  }
  if (filter.status !== undefined) conditions.push(eq(phoneHistory.status, filter.status));
  if (filter.phoneName !== undefined) conditions.push(eq(phoneHistory.phoneName, filter.phoneName));
  if (filter.appVersion !== undefined) conditions.push(eq(phoneHistory.appVersion, filter.appVersion));
  if (filter.start !== undefined) conditions.push(gte(phoneHistory.recordedAt, new Date(filter.start)));
  if (filter.end !== undefined) conditions.push(lte(phoneHistory.recordedAt, new Date(filter.end)));
  return and(...conditions);
}

function phoneOrder(sort: PhoneHistoryQuery['sort']): SQL[] {
  const [field, type] = sort.split(',') as [
    'recordedAt' | 'phoneName' | 'appVersion' | 'status',
    'asc' | 'desc',
  ];
  const direction = type === 'desc' ? desc : asc;
  const column = {
    recordedAt: phoneHistory.recordedAt,
    phoneName: phoneHistory.phoneName,
    appVersion: phoneHistory.appVersion,
    status: phoneHistory.status,
  }[field];
  const key = field === 'phoneName' || field === 'appVersion' ? sql`lower(${column})` : column;
  return [direction(key), direction(phoneHistory.recordedAt), direction(phoneHistory.id)];
}

export async function listPhoneHistory(tx: TenantTransaction, query: PhoneHistoryQuery) {
  const where = phoneConditions(query);
  const items = await tx
    .select()
    .from(phoneHistory)
    .where(where)
    .orderBy(...phoneOrder(query.sort))
    .limit(query.size)
    .offset(query.page * query.size);
  const totals = await tx.select({ total: count() }).from(phoneHistory).where(where);
  return { items, total: totals[0]?.total ?? 0 };
}

/** Distinct phone names or app versions in phone histories (of one account, or every visible one). */
export async function phoneValues(
  tx: TenantTransaction,
  column: 'phoneName' | 'appVersion',
  username: string | undefined,
): Promise<string[]> {
  const target = column === 'phoneName' ? phoneHistory.phoneName : phoneHistory.appVersion;
  const rows = await tx
    .selectDistinct({ value: target })
    .from(phoneHistory)
    .where(
      and(
        username === undefined ? undefined : sameUsername(phoneHistory.username, username),
        sql`${target} <> ''`,
      ),
    )
    .orderBy(asc(target))
    .limit(500);
  return rows.map((row) => row.value).sort(byText);
}

/** The latest phone of each account (spec §7 phone/get-all), one page of them. */
export async function latestPhones(
  tx: TenantTransaction,
  query: { page: number; size: number; username?: string | undefined },
) {
  const where =
    query.username === undefined ? undefined : sameUsername(phoneHistory.username, query.username);
  const latest = tx
    .selectDistinctOn([sql`lower(${phoneHistory.username})`], {
      id: phoneHistory.id,
      patientId: phoneHistory.patientId,
      username: phoneHistory.username,
      phoneName: phoneHistory.phoneName,
      os: phoneHistory.os,
      osVersion: phoneHistory.osVersion,
      appVersion: phoneHistory.appVersion,
      status: phoneHistory.status,
      recordedAt: phoneHistory.recordedAt,
    })
    .from(phoneHistory)
    .where(where)
    .orderBy(sql`lower(${phoneHistory.username})`, desc(phoneHistory.recordedAt), desc(phoneHistory.id))
    .as('latest');
  const items = await tx
    .select()
    .from(latest)
    .orderBy(asc(latest.username))
    .limit(query.size)
    .offset(query.page * query.size);
  const totals = await tx
    .select({ total: sql<number>`count(DISTINCT lower(${phoneHistory.username}))::int` })
    .from(phoneHistory)
    .where(where);
  return { items, total: totals[0]?.total ?? 0 };
}
