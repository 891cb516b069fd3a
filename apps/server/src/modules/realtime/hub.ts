import { canSeePatientEvent, type LiveEvent, type PatientFacts } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { patientAccessSubjectOf } from '../../db/caller.js';
import { ALL_CENTERS, type CenterVisibility, type Database } from '../../db/database.js';
import { EVENT_PAGE, eventsWithPatientsAfter, lastEventId } from './store.js';

/** A connected client as the hub sees it. */
export interface LiveSubscriber {
  tenantId: string;
  /** The signed-in account: events addressed to one account (payload.recipientUserId) go to its sockets only. */
  userId: string;
  visibility: CenterVisibility;
  /** Called for every committed event of the tenant the subscriber may see, in id order. */
  deliver(event: LiveEvent): void;
}

/**
 * Whether a subscriber may receive an event: the patient access rule of contracts, the same one
 * the database applies to the events a socket replays (migrations 0017 and 0037): a patient
 * account gets its own record's and its sub-users' events, and of the patients it follows their
 * status, alert and SOS events.
 */
export function canSee(subscriber: Pick<LiveSubscriber, 'tenantId' | 'userId' | 'visibility'>, tenantId: string, event: LiveEvent, patient: PatientFacts | null): boolean {
  const addressee = recipientOf(event);
  if (addressee !== null) return subscriber.tenantId === tenantId && subscriber.userId === addressee;
  return canSeePatientEvent(patientAccessSubjectOf(subscriber.visibility), subscriber.tenantId, {
    tenantId,
    type: event.type,
    patientId: event.patientId,
    healthCenterId: event.healthCenterId,
    patient,
  });
}

/** The one account an event is addressed to (a notification), or null for an event of the tenant. */
export function recipientOf(event: Pick<LiveEvent, 'payload'>): string | null {
  const recipient = event.payload.recipientUserId;
  return typeof recipient === 'string' ? recipient : null;
}

interface TenantGroup {
  subscribers: Set<LiveSubscriber>;
  /** Highest event id already fetched and handed out for this tenant. */
  lastId: number;
  isFetching: boolean;
  fetchAgain: boolean;
}

const CHANNEL = 'rpm_events';

/**
 * Fan-out of committed events to the sockets of this process. One LISTEN connection per process
 * (channel rpm_events, "<tenant>:<id>", sent by the database at commit); a notification makes the
 * hub read that tenant's new events ONCE (ids above the last it handed out, the whole tenant) and
 * hand each to the tenant's subscribers whose centers include it. A poll of the tenants with
 * subscribers backs this up: notifications lost while the LISTEN connection was down, and
 * DEDICATED tenants, whose events are written (and notified) in their own database.
 *
 * Ids are given at commit under a per-tenant lock (migration 0015), so reading "ids above the
 * last one" never skips an event that commits late.
 */
export class EventHub {
  private readonly groups = new Map<string, TenantGroup>();
  private listener: pg.Client | undefined;
  private listenerStarting: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private isStopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly pollMilliseconds = 2000,
  ) {}

  /** Adds a subscriber; resolves once the hub tracks its tenant (events after that reach it). */
  async join(subscriber: LiveSubscriber): Promise<{ lastId: number }> {
    this.ensureRunning();
    for (;;) {
      const existing = this.groups.get(subscriber.tenantId);
      if (existing === undefined) break;
      if (existing.subscribers.size === 0 && existing.isFetching) {
        // Being set up by another join, or winding down: look again when it settles.
        await this.whenIdle(existing);
        continue;
      }
      existing.subscribers.add(subscriber);
      return { lastId: existing.lastId };
    }
    const group: TenantGroup = { subscribers: new Set(), lastId: 0, isFetching: true, fetchAgain: false };
    this.groups.set(subscriber.tenantId, group);
    try {
      group.lastId = await this.database.withTenant(
        subscriber.tenantId,
        (tx) => lastEventId(tx),
        ALL_CENTERS,
      );
    } catch (error) {
      this.groups.delete(subscriber.tenantId);
      throw error;
    } finally {
      group.isFetching = false;
    }
    group.subscribers.add(subscriber);
    if (group.fetchAgain) void this.fetch(subscriber.tenantId);
    return { lastId: group.lastId };
  }

  leave(subscriber: LiveSubscriber): void {
    const group = this.groups.get(subscriber.tenantId);
    if (group === undefined) return;
    group.subscribers.delete(subscriber);
    if (group.subscribers.size === 0 && !group.isFetching) this.groups.delete(subscriber.tenantId);
  }

  /** Reads and hands out the tenant's new events now (also what a notification triggers). */
  async fetch(tenantId: string): Promise<void> {
    const group = this.groups.get(tenantId);
    if (group === undefined) return;
    if (group.isFetching) {
      group.fetchAgain = true;
      return;
    }
    group.isFetching = true;
    try {
      do {
        group.fetchAgain = false;
        const page = await this.database.withTenant(
          tenantId,
          (tx) => eventsWithPatientsAfter(tx, group.lastId),
          ALL_CENTERS,
        );
        for (const { event, patient } of page) {
          group.lastId = event.id;
          for (const subscriber of group.subscribers) {
            if (canSee(subscriber, tenantId, event, patient)) subscriber.deliver(event);
          }
        }
        if (page.length === EVENT_PAGE) group.fetchAgain = true;
      } while (group.fetchAgain && !this.isStopped);
    } catch (error) {
      this.log.warn({ err: error, tenantId }, 'realtime: reading new events failed; the next poll retries');
    } finally {
      group.isFetching = false;
      if (group.subscribers.size === 0) this.groups.delete(tenantId);
    }
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearInterval(this.pollTimer);
    clearTimeout(this.reconnectTimer);
    this.groups.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private async whenIdle(group: TenantGroup): Promise<void> {
    while (group.isFetching) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  private ensureRunning(): void {
    if (this.isStopped) throw new Error('the event hub is stopped');
    if (this.pollTimer === undefined) {
      this.pollTimer = setInterval(() => {
        for (const tenantId of this.groups.keys()) void this.fetch(tenantId);
      }, this.pollMilliseconds);
      this.pollTimer.unref();
    }
    if (this.listener === undefined && this.listenerStarting === undefined) {
      this.listenerStarting = this.listen().finally(() => {
        this.listenerStarting = undefined;
      });
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.database.pool.options, application_name: 'rpm-events' });
    const retry = (error: unknown) => {
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.isStopped) return;
      this.log.warn({ err: error }, 'realtime: LISTEN connection lost; polling until it is back');
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => {
        if (!this.isStopped && this.listener === undefined && this.listenerStarting === undefined)
          this.ensureRunning();
      }, 1000);
      this.reconnectTimer.unref();
    };
    client.on('error', retry);
    client.on('notification', (message) => {
      const tenantId = message.payload?.split(':')[0];
      if (tenantId !== undefined && this.groups.has(tenantId)) void this.fetch(tenantId);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      retry(error);
      return;
    }
    if (this.isStopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    // Whatever committed while nobody listened.
    for (const tenantId of this.groups.keys()) void this.fetch(tenantId);
  }
}
