import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';
import { decideReaction, type RequestMeta } from './error-reaction';
import { announceSessionEnded } from './session-events';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: RequestMeta;
    mutationMeta: RequestMeta;
  }
}

/** Retries after the first failure: spec-wise two more attempts, so three in all. */
export const MAX_QUERY_RETRIES = 2;

/**
 * Reads are retried only when trying again can help: the server was unreachable, busy or in
 * maintenance (network, 5xx, 502). A 4xx is an answer; repeating the question changes nothing.
 * Only GETs: a POST may not be safe to repeat.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_QUERY_RETRIES) return false;
  if (!isApiError(error) || error.request.method !== 'GET') return false;
  return error.kind === 'network' || error.status >= 500;
}

export interface ErrorHandlers {
  /** Shows a failure as a toast; meta carries the action's own message, if any. */
  notify: (error: unknown, meta: RequestMeta | undefined) => void;
}

/** The one place where answers become reactions (spec §7), for queries and mutations alike. */
export function handleRequestError(
  error: unknown,
  meta: RequestMeta | undefined,
  handlers: ErrorHandlers,
): void {
  const reaction = decideReaction(error, meta);
  switch (reaction.type) {
    case 'endSession':
      announceSessionEnded(reaction.reason);
      return;
    case 'notify':
      handlers.notify(error, meta);
      return;
    case 'none':
      return;
  }
}

export function createQueryClient(handlers: ErrorHandlers): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        handleRequestError(error, query.meta, handlers);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        handleRequestError(error, mutation.meta, handlers);
      },
    }),
    defaultOptions: {
      queries: { retry: shouldRetryQuery, refetchOnWindowFocus: false, staleTime: 30_000 },
      // A mutation changes something; repeating it on its own could do it twice.
      mutations: { retry: false },
    },
  });
}
