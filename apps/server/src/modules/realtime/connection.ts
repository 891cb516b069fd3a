import {
  LIVE_CLOSE_CODES,
  liveClientMessageSchema,
  type LiveCall,
  type LiveEvent,
  type LiveServerMessage,
} from '@rpm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { withCaller } from '../../db/caller.js';
import type { CenterVisibility, Database } from '../../db/database.js';
import type { AuthContext } from '../../http/access.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../http/app-error.js';
import type { CallEndpoint, CallRelay } from './call-relay.js';
import { recipientOf, type EventHub, type LiveSubscriber } from './hub.js';
import { EVENT_PAGE, eventsAfter, latestSessionOfFamily } from './store.js';

/** A client that does not drain its socket is dropped; it resumes where it was on reconnect. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Events held for a client while its replay runs. */
const MAX_PENDING_EVENTS = 10_000;
const RESUME_TIMEOUT_MILLISECONDS = 10_000;
/** Call messages a socket may send per window: a call's offer, answer and candidates are far fewer. */
const MAX_CALL_MESSAGES = 120;
const CALL_WINDOW_MILLISECONDS = 10_000;

/** Who a call message of the caller goes to, or the refusal (an AppError: video.*, appointment.notFound). */
export type AuthoriseCall = (auth: AuthContext, appointmentId: string, kind: string) => Promise<{ peerUserId: string }>;

export interface ConnectionEnvironment {
  database: Database;
  clock: Clock;
  hub: EventHub;
  log: FastifyBaseLogger;
  calls: CallRelay;
  authoriseCall: AuthoriseCall;
}

/** The part of a ws socket a live connection uses. */
export type LiveSocket = Pick<WebSocket, 'on' | 'send' | 'close' | 'ping' | 'terminate' | 'bufferedAmount'>;

type SessionFingerprint = string;
const fingerprintOf = (row: {
  tenantId: string;
  levelId: string | null;
  filterScopeId: string | null;
  filterCenterId: string | null;
}): SessionFingerprint => [row.tenantId, row.levelId, row.filterScopeId, row.filterCenterId].join('|');

/**
 * One live socket: waits for `resume`, replays what the caller may see after the given id
 * (through withCaller, so the database's center policies decide), then streams what the hub hands
 * it. Events arriving during the replay are held and sent after it, each id at most once and in
 * order. The login behind the socket is checked with every heartbeat.
 */
export class LiveConnection implements LiveSubscriber, CallEndpoint {
  readonly tenantId: string;
  readonly userId: string;
  /** Appointments whose call this socket joined (a `ready` the server accepted). */
  private readonly calls = new Set<string>();
  private callQueue: Promise<void> = Promise.resolve();
  private callWindowStart = 0;
  private callMessagesInWindow = 0;
  readonly visibility: CenterVisibility;
  private lastSentId = 0;
  private isResumed = false;
  private isClosed = false;
  private hasResumeStarted = false;
  private pending: LiveEvent[] = [];
  private joinedLastId = 0;
  private joined: Promise<void>;
  private isAlive = true;
  private sessionFingerprint: SessionFingerprint | undefined;
  private readonly resumeTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: LiveSocket,
    private readonly auth: AuthContext,
    private readonly environment: ConnectionEnvironment,
    private readonly onClosed: (connection: LiveConnection) => void,
  ) {
    this.tenantId = auth.tenantId;
    this.userId = auth.userId;
    this.visibility = auth.visibility;
    this.resumeTimer = setTimeout(() => {
      this.close(LIVE_CLOSE_CODES.badRequest, 'resume expected');
    }, RESUME_TIMEOUT_MILLISECONDS);
    this.resumeTimer.unref();
    socket.on('pong', () => {
      this.isAlive = true;
    });
    socket.on('close', () => {
      this.dispose();
    });
    socket.on('error', () => {
      this.dispose();
    });
    socket.on('message', (data, isBinary) => {
      void this.receive(isBinary ? '' : Buffer.isBuffer(data) ? data.toString('utf8') : '');
    });
    // Tracked from the start, so nothing committed between now and the replay is missed.
    this.joined = environment.hub.join(this).then(
      ({ lastId }) => {
        this.joinedLastId = lastId;
      },
      (error: unknown) => {
        environment.log.warn({ err: error }, 'realtime: could not follow the tenant');
        this.close(1011, 'unavailable');
      },
    );
  }

  deliver(event: LiveEvent): void {
    if (this.isClosed) return;
    if (!this.isResumed) {
      this.pending.push(event);
      if (this.pending.length > MAX_PENDING_EVENTS) this.close(LIVE_CLOSE_CODES.tooSlow, 'too slow');
      return;
    }
    this.send(event);
  }

  /** Heartbeat: drop a socket that stopped answering, close one whose login ended or changed. */
  async check(): Promise<void> {
    if (this.isClosed) return;
    if (!this.isAlive) {
      this.socket.terminate();
      this.dispose();
      return;
    }
    this.isAlive = false;
    this.socket.ping();
    const session = await latestSessionOfFamily(this.environment.database.system, this.auth.familyId);
    if (session === undefined || (session.revokedReason !== null && session.revokedReason !== 'rotated')) {
      this.close(
        session?.revokedReason === 'replaced'
          ? LIVE_CLOSE_CODES.loggedInElsewhere
          : LIVE_CLOSE_CODES.sessionEnded,
        'session ended',
      );
      return;
    }
    if ((session.refreshExpiresAt ?? session.expiresAt).getTime() <= this.environment.clock.now().getTime()) {
      this.close(LIVE_CLOSE_CODES.sessionEnded, 'session expired');
      return;
    }
    const fingerprint = fingerprintOf(session);
    this.sessionFingerprint ??= fingerprint;
    if (fingerprint !== this.sessionFingerprint)
      this.close(LIVE_CLOSE_CODES.sessionChanged, 'session changed');
  }

  close(code: number, reason: string): void {
    if (this.isClosed) return;
    this.socket.close(code, reason);
    this.dispose();
  }

  private async receive(text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    const parsed = liveClientMessageSchema.safeParse(message);
    if (parsed.success && parsed.data.type === 'call') {
      const call = parsed.data;
      if (!this.countCallMessage()) return;
      // One at a time, so the peer gets them in the order they were sent.
      this.callQueue = this.callQueue.then(() => this.relayCall(call));
      return;
    }
    if (!parsed.success || parsed.data.type !== 'resume' || this.hasResumeStarted) {
      this.close(LIVE_CLOSE_CODES.badRequest, 'one resume message expected');
      return;
    }
    this.hasResumeStarted = true;
    clearTimeout(this.resumeTimer);
    try {
      await this.resume(parsed.data.after);
    } catch (error) {
      this.environment.log.warn({ err: error }, 'realtime: replay failed');
      this.close(1011, 'replay failed');
    }
  }

  isInCall(appointmentId: string): boolean {
    return !this.isClosed && this.calls.has(appointmentId);
  }

  deliverCall(message: LiveCall): void {
    if (this.isClosed) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(LIVE_CLOSE_CODES.tooSlow, 'too slow');
      return;
    }
    this.write(message);
  }

  /** False (and the socket closed) past MAX_CALL_MESSAGES in a window. */
  private countCallMessage(): boolean {
    const now = Date.now();
    if (now - this.callWindowStart > CALL_WINDOW_MILLISECONDS) {
      this.callWindowStart = now;
      this.callMessagesInWindow = 0;
    }
    this.callMessagesInWindow++;
    if (this.callMessagesInWindow <= MAX_CALL_MESSAGES) return true;
    this.close(LIVE_CLOSE_CODES.tooManyMessages, 'too many call messages');
    return false;
  }

  /**
   * A call message: checked (a party of the appointment, its room open; `leave` always passes),
   * then sent to the other party's sockets in the call. `ready` joins this socket to the call and
   * is acknowledged; a refusal is answered with its code and nothing is relayed.
   */
  private async relayCall(call: LiveCall): Promise<void> {
    if (this.isClosed) return;
    const { appointmentId, signal } = call;
    let peerUserId: string;
    try {
      ({ peerUserId } = await this.environment.authoriseCall(this.auth, appointmentId, signal.kind));
    } catch (error) {
      if (!(error instanceof AppError)) this.environment.log.warn({ err: error }, 'calls: checking a call message failed');
      this.calls.delete(appointmentId);
      this.write({ type: 'callRefused', appointmentId, code: error instanceof AppError ? error.code : 'common.default' });
      return;
    }
    if (signal.kind === 'ready') {
      this.calls.add(appointmentId);
      await this.environment.calls.register(this);
      this.write({ type: 'callJoined', appointmentId });
    }
    if (signal.kind === 'leave') this.calls.delete(appointmentId);
    if (peerUserId === '') return;
    try {
      await this.environment.calls.send(peerUserId, call);
    } catch (error) {
      this.environment.log.warn({ err: error }, 'calls: a call message could not be sent');
    }
  }

  private async resume(after: number | null): Promise<void> {
    await this.joined;
    // The fingerprint of the login as it was when the socket opened.
    const session = await latestSessionOfFamily(this.environment.database.system, this.auth.familyId);
    if (session !== undefined) this.sessionFingerprint = fingerprintOf(session);
    // An id beyond anything committed comes from another history: start from now.
    this.lastSentId = after === null ? this.joinedLastId : Math.min(after, this.joinedLastId);
    // Pages are read after the last id read (not the last sent): events skipped below still advance.
    let cursor = this.lastSentId;
    for (;;) {
      if (this.isClosed) return;
      const from = cursor;
      const page = await withCaller(this.environment.database, this.auth, (tx) => eventsAfter(tx, from));
      for (const event of page) {
        // The tenant's events the caller may see, less those addressed to another account.
        const addressee = recipientOf(event);
        if (addressee === null || addressee === this.userId) this.send(event);
      }
      cursor = page.at(-1)?.id ?? cursor;
      if (page.length < EVENT_PAGE) break;
    }
    for (const event of this.pending) this.send(event);
    this.pending = [];
    this.isResumed = true;
    this.write({ type: 'resumed', lastId: this.lastSentId });
  }

  private send(event: LiveEvent): void {
    if (this.isClosed || event.id <= this.lastSentId) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(LIVE_CLOSE_CODES.tooSlow, 'too slow');
      return;
    }
    this.lastSentId = event.id;
    this.write(event);
  }

  private write(message: LiveServerMessage): void {
    this.socket.send(JSON.stringify(message));
  }

  private dispose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    clearTimeout(this.resumeTimer);
    this.pending = [];
    this.environment.hub.leave(this);
    this.calls.clear();
    this.environment.calls.unregister(this);
    this.onClosed(this);
  }
}
