import { LIVE_BEARER_PROTOCOL, LIVE_CLOSE_CODES, liveServerMessageSchema, type LiveEvent } from '@rpm/contracts';
import { useEffect, useRef } from 'react';
import { loadSession } from '../../api/session-store';

/** Retry delays after a dropped socket; the last one repeats. */
const RETRY_MILLISECONDS = [1000, 2000, 5000, 10_000];
const SESSION_CODES: readonly number[] = [LIVE_CLOSE_CODES.sessionEnded, LIVE_CLOSE_CODES.loggedInElsewhere];

/**
 * The patient's live channel (`/ws`): the access token goes as a subprotocol (a browser WebSocket
 * sends no Authorization header), `resume` asks for everything after the last event seen, so a
 * dropped connection misses nothing. Events are handed to `onEvent`; `onResumed` runs after each
 * (re)connection's replay, so the caller can reload what it shows.
 */
export function useLiveEvents(onEvent: (event: LiveEvent) => void, onResumed: () => void): void {
  const handlers = useRef({ onEvent, onResumed });
  handlers.current = { onEvent, onResumed };
  useEffect(() => {
    let socket: WebSocket | undefined;
    let lastId: number | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;

    const connect = () => {
      const session = loadSession();
      if (isStopped || session === undefined || typeof WebSocket === 'undefined') return;
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      const current = new WebSocket(`${scheme}://${location.host}/ws`, [LIVE_BEARER_PROTOCOL, session.accessToken]);
      socket = current;
      current.onopen = () => {
        current.send(JSON.stringify({ type: 'resume', after: lastId }));
      };
      current.onmessage = (message: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        const parsed = liveServerMessageSchema.safeParse(data);
        if (!parsed.success) return;
        const received = parsed.data;
        if ('lastId' in received) {
          attempt = 0;
          lastId = received.lastId;
          handlers.current.onResumed();
          return;
        }
        // Events only: call messages go to the video room's own socket.
        if (!('id' in received)) return;
        lastId = received.id;
        handlers.current.onEvent(received);
      };
      current.onclose = (closed) => {
        if (isStopped || socket !== current) return;
        // A session that ended is the API's business (the next call says so): no reconnect loop.
        if (SESSION_CODES.includes(closed.code)) return;
        const delay = RETRY_MILLISECONDS[Math.min(attempt, RETRY_MILLISECONDS.length - 1)] ?? 10_000;
        attempt++;
        timer = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      isStopped = true;
      clearTimeout(timer);
      socket?.close(1000, 'left');
    };
  }, []);
}
