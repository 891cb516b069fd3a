import { LIVE_CLOSE_CODES, liveEventSchema, liveResumedSchema, type LiveEvent } from '@rpm/contracts';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';
export type SessionEnd = 'auth.unauthorized' | 'auth.loggedInElsewhere';

export interface LiveClientOptions {
  /** Where the last seen event id is kept for this tab (survives a reload, not a new tab). */
  storageKey: string;
  onEvent(event: LiveEvent): void;
  onStatus(status: LiveStatus): void;
  /** The server closed the socket because the login ended. */
  onSessionEnd(reason: SessionEnd): void;
  /** Renews the access cookie (it lives 15 minutes); false when the session is over. */
  refreshSession(): Promise<boolean>;
}

const MAX_BACKOFF_MILLISECONDS = 30_000;

/**
 * One WebSocket per signed-in console. It resumes after the last event id it handed out (kept in
 * sessionStorage), so a dropped connection or a reload misses nothing; reconnects back off from
 * 0.5 s to 30 s with jitter. A socket refused before opening usually means an expired access
 * cookie: the session is refreshed before the next attempt.
 */
export class LiveClient {
  private socket: WebSocket | undefined;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private isStopped = false;
  private lastId: number | null;

  constructor(private readonly options: LiveClientOptions) {
    const stored = Number(sessionStorage.getItem(options.storageKey) ?? 'NaN');
    this.lastId = Number.isInteger(stored) && stored >= 0 ? stored : null;
  }

  start(): void {
    this.isStopped = false;
    this.connect();
  }

  stop(): void {
    this.isStopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = undefined;
  }

  private connect(): void {
    if (this.isStopped) return;
    this.options.onStatus(this.attempts === 0 ? 'connecting' : 'reconnecting');
    const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${protocol}//${window.location.host}/ws`);
    this.socket = socket;
    let hasOpened = false;
    socket.addEventListener('open', () => {
      hasOpened = true;
      socket.send(JSON.stringify({ type: 'resume', after: this.lastId }));
    });
    socket.addEventListener('message', (message: MessageEvent<unknown>) => {
      if (typeof message.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      const resumed = liveResumedSchema.safeParse(data);
      if (resumed.success) {
        this.attempts = 0;
        this.remember(resumed.data.lastId);
        this.options.onStatus('live');
        return;
      }
      const event = liveEventSchema.safeParse(data);
      if (!event.success) return;
      this.remember(event.data.id);
      this.options.onEvent(event.data);
    });
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      if (this.isStopped) return;
      if (event.code === LIVE_CLOSE_CODES.sessionEnded) {
        this.options.onSessionEnd('auth.unauthorized');
        return;
      }
      if (event.code === LIVE_CLOSE_CODES.loggedInElsewhere) {
        this.options.onSessionEnd('auth.loggedInElsewhere');
        return;
      }
      this.scheduleReconnect(!hasOpened);
    });
  }

  private remember(id: number): void {
    if (this.lastId !== null && id <= this.lastId) return;
    this.lastId = id;
    sessionStorage.setItem(this.options.storageKey, String(id));
  }

  private scheduleReconnect(wasRefused: boolean): void {
    this.options.onStatus('reconnecting');
    this.attempts += 1;
    const backoff = Math.min(MAX_BACKOFF_MILLISECONDS, 500 * 2 ** Math.min(this.attempts - 1, 6));
    const delay = backoff / 2 + Math.random() * (backoff / 2);
    this.timer = setTimeout(() => {
      if (!wasRefused) {
        this.connect();
        return;
      }
      void this.options.refreshSession().finally(() => {
        this.connect();
      });
    }, delay);
  }
}
