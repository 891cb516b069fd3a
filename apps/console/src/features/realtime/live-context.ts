import type { LiveEvent } from '@rpm/contracts';
import { createContext, useContext, useEffect, useRef } from 'react';
import type { LiveStatus } from './live-client';

export type LiveHandler = (event: LiveEvent) => void;

export interface LiveLayerValue {
  status: LiveStatus;
  subscribe(type: string, handler: LiveHandler): () => void;
}

export const LiveContext = createContext<LiveLayerValue | null>(null);

/** The connection state for the header indicator; 'connecting' outside the live layer. */
export function useLiveStatus(): LiveStatus {
  return useContext(LiveContext)?.status ?? 'connecting';
}

/**
 * Calls `handler` for every live event of `type` (`'*'` for all) while the component is mounted.
 * The latest handler is used, so it may close over state without re-subscribing.
 */
export function useLiveEvent(type: string, handler: LiveHandler): void {
  const live = useContext(LiveContext);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (live === null) return undefined;
    return live.subscribe(type, (event) => {
      latest.current(event);
    });
  }, [live, type]);
}
