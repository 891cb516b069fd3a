import type { SessionEndReason } from './error-reaction';

type Listener = (reason: SessionEndReason) => void;

const listeners = new Set<Listener>();

/**
 * The query client learns that the session ended far from the router; the shell subscribes here
 * to clear the cache and go to /login. One small channel instead of importing the router into the
 * API layer.
 */
export function onSessionEnded(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function announceSessionEnded(reason: SessionEndReason): void {
  for (const listener of listeners) listener(reason);
}
