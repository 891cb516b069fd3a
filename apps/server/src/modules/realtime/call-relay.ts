import type { LiveCall } from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/database.js';

/** A socket that joined calls: the relay hands it the call messages addressed to its user in them. */
export interface CallEndpoint {
  readonly userId: string;
  isInCall(appointmentId: string): boolean;
  deliverCall(message: LiveCall): void;
}

const CHANNEL = 'rpm_calls';
/** NOTIFY payloads stay under PostgreSQL's 8000 bytes; larger messages (SDP) go through call_signals. */
const MAX_INLINE_BYTES = 7000;
/** How long a stored message is kept for a process that is slow to read it. */
const KEEP_MINUTES = 10;

type Notice = { u: string; m: LiveCall } | { u: string; id: number };

/**
 * Video call signalling between the processes serving the two parties (migration 0046): a message
 * is sent as a NOTIFY on rpm_calls naming its recipient, inline when it fits, else stored in
 * call_signals and named by id. Every process listens; one holding a socket of the recipient that
 * joined the call hands it on. Notifications arrive in commit order and are handled one at a time,
 * so one sender's offer and candidates reach the peer in the order they were sent.
 *
 * Signalling is not durable: a message sent while the peer is not connected is not kept for it.
 * The call protocol does not need it: whoever (re)joins says `ready`, and the two start again.
 */
export class CallRelay {
  private readonly endpoints = new Map<string, Set<CallEndpoint>>();
  private listener: pg.Client | undefined;
  private starting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  private isStopped = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts listening (if not yet) and resolves once this process receives call messages. */
  async register(endpoint: CallEndpoint): Promise<void> {
    let set = this.endpoints.get(endpoint.userId);
    if (set === undefined) {
      set = new Set();
      this.endpoints.set(endpoint.userId, set);
    }
    set.add(endpoint);
    await this.ensureListening();
  }

  unregister(endpoint: CallEndpoint): void {
    const set = this.endpoints.get(endpoint.userId);
    if (set === undefined) return;
    set.delete(endpoint);
    if (set.size === 0) this.endpoints.delete(endpoint.userId);
  }

  /** Sends a call message to the sockets of `recipientUserId` that joined its call, in any process. */
  async send(recipientUserId: string, message: LiveCall): Promise<void> {
    const inline = JSON.stringify({ u: recipientUserId, m: message } satisfies Notice);
    if (Buffer.byteLength(inline) <= MAX_INLINE_BYTES) {
      await this.database.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, inline]);
      return;
    }
    await this.database.pool.query(
      `WITH expired AS (DELETE FROM call_signals WHERE created_at < now() - make_interval(mins => $3)),
            stored AS (INSERT INTO call_signals (recipient_user_id, message) VALUES ($1, $2) RETURNING id)
       SELECT pg_notify($4, json_build_object('u', $1::text, 'id', stored.id)::text) FROM stored`,
      [recipientUserId, message, KEEP_MINUTES, CHANNEL],
    );
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.reconnectTimer);
    this.endpoints.clear();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private ensureListening(): Promise<void> {
    if (this.isStopped || this.listener !== undefined) return Promise.resolve();
    this.starting ??= this.listen().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.database.pool.options, application_name: 'rpm-calls' });
    const retry = (error: unknown) => {
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.isStopped) return;
      this.log.warn({ err: error }, 'calls: LISTEN connection lost; reconnecting');
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => {
        if (this.endpoints.size > 0) void this.ensureListening();
      }, 1000);
      this.reconnectTimer.unref();
    };
    client.on('error', retry);
    client.on('notification', (notification) => {
      const payload = notification.payload;
      if (payload === undefined) return;
      this.queue = this.queue.then(() => this.handle(payload)).catch((error: unknown) => {
        this.log.warn({ err: error }, 'calls: a call message could not be handed on');
      });
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
  }

  private async handle(payload: string): Promise<void> {
    const notice = JSON.parse(payload) as Notice;
    const endpoints = this.endpoints.get(notice.u);
    if (endpoints === undefined) return;
    let message: LiveCall;
    if ('m' in notice) {
      message = notice.m;
    } else {
      const result = await this.database.pool.query<{ message: LiveCall }>(
        'SELECT message FROM call_signals WHERE id = $1',
        [notice.id],
      );
      const row = result.rows[0];
      if (row === undefined) return;
      message = row.message;
    }
    for (const endpoint of endpoints) {
      if (endpoint.isInCall(message.appointmentId)) endpoint.deliverCall(message);
    }
  }
}
