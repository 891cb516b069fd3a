import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/**
 * Query keys of the monitoring screens. Live updates invalidate these: an `sos.*` event the SOS
 * keys, a `ticket.*` event the ticket keys, a `message.updated` event the message keys.
 */
export const MONITORING_QUERY_ROOT = [SESSION_QUERY_ROOT, 'monitoring'] as const;
export const SOS_CASES_QUERY_KEY = [...MONITORING_QUERY_ROOT, 'sos-cases'] as const;
export const TICKETS_QUERY_KEY = [...MONITORING_QUERY_ROOT, 'tickets'] as const;
export const MESSAGES_QUERY_KEY = [...MONITORING_QUERY_ROOT, 'messages'] as const;
/** A patient's followers (the profile's followers tab); the SOS case page shows them too. */
export const CONTACTS_QUERY_KEY = [...MONITORING_QUERY_ROOT, 'contacts'] as const;

/** The keys a live event of `type` makes stale (e.g. 'sos.opened' → the SOS list and details). */
export function queryKeysForEvent(type: string): (readonly string[])[] {
  if (type.startsWith('sos.')) return [SOS_CASES_QUERY_KEY, TICKETS_QUERY_KEY];
  if (type.startsWith('ticket.')) return [TICKETS_QUERY_KEY];
  if (type === 'message.updated') return [MESSAGES_QUERY_KEY];
  if (type.startsWith('alert.')) return [SOS_CASES_QUERY_KEY];
  // A follower confirmed, was removed or had data hidden from them.
  if (type === 'follower.changed') return [CONTACTS_QUERY_KEY, SOS_CASES_QUERY_KEY];
  return [];
}
