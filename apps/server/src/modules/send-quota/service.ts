import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { SEND_QUOTAS } from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { countSend, purgeEndedWindows } from './store.js';

/** What a quota check needs of the caller's environment (the verification and trial-request ones fit). */
export interface SendQuotaEnvironment {
  database: Database;
  clock: Clock;
  secretsKey: Buffer;
  /** The caller's address (request.ip). */
  audit: { ip: string | null };
}

export interface SendRequest {
  /** The tenant the call names (the platform tenant for trial requests). */
  tenantId: string;
  channel: 'EMAIL' | 'SMS';
  /** Where the message goes (for an unknown account: what the caller typed, as the code's cooldown does). */
  destination: string;
}

const WINDOW_MILLISECONDS = SEND_QUOTAS.windowSeconds * 1000;

/**
 * The caller's address as counted: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4 form), an IPv6 address by its /64 network, which one subscriber usually holds whole (per
 * address it would give them 2^64 quotas).
 */
export function clientAddressKey(ip: string | null): string {
  if (ip === null || ip === '') return 'unknown';
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [group];
          // A trailing dotted IPv4 part is the last two groups.
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        });
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * A destination as counted: an email in lower case without its "+tag" (one mailbox, however
 * tagged), a phone number with only its digits and a leading +.
 */
export function destinationKey(channel: SendRequest['channel'], destination: string): string {
  const value = destination.trim().toLowerCase();
  if (channel === 'SMS') return value.replace(/(?!^\+)[^\d]/g, '');
  const at = value.lastIndexOf('@');
  if (at <= 0) return value;
  const local = value.slice(0, at).replace(/\+.*$/, '');
  return `${local === '' ? value.slice(0, at) : local}${value.slice(at)}`;
}

/** The stored form of a key: an HMAC with a key of its own derived from SECRETS_KEY (no PII at rest). */
function hashKey(secretsKey: Buffer, kind: string, value: string): Buffer {
  const quotaKey = createHmac('sha256', secretsKey).update('rpm/send-quota/v1').digest();
  return createHmac('sha256', quotaKey).update(`${kind}\u0000${value}`).digest();
}

/**
 * Counts a call that may send an email or SMS on behalf of a caller without a session, and
 * refuses it (429 common.sendQuota with Retry-After, before anything is stored or queued) when its
 * address, its destination or its tenant is over its hourly quota (SEND_QUOTAS). Every call
 * counts, whether or not a message is finally sent, so an unknown account answers like a known
 * one. Counting happens in the platform database in one statement, before the caller's
 * transaction, so it holds across processes and parallel calls.
 */
export async function assertSendQuota(
  environment: SendQuotaEnvironment,
  request: SendRequest,
): Promise<void> {
  const { database, clock, secretsKey } = environment;
  const now = clock.now().getTime();
  const windowStart = new Date(Math.floor(now / WINDOW_MILLISECONDS) * WINDOW_MILLISECONDS);
  const counts = await countSend(database.system, {
    windowStart,
    keys: {
      address: hashKey(secretsKey, 'ADDRESS', clientAddressKey(environment.audit.ip)),
      destination: hashKey(
        secretsKey,
        `DESTINATION:${request.channel}`,
        destinationKey(request.channel, request.destination),
      ),
      tenant: hashKey(secretsKey, 'TENANT', request.tenantId),
    },
    limits: { address: SEND_QUOTAS.perClientAddress, destination: SEND_QUOTAS.perDestination },
  });
  // The first call of an address in a window clears ended windows (bounded, never waiting).
  if (counts.address === 1) await purgeEndedWindows(database.system, windowStart);
  const isAllowed =
    counts.address <= SEND_QUOTAS.perClientAddress &&
    counts.destination !== null &&
    counts.destination <= SEND_QUOTAS.perDestination &&
    counts.tenant !== null &&
    counts.tenant <= SEND_QUOTAS.perTenant;
  if (!isAllowed) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((windowStart.getTime() + WINDOW_MILLISECONDS - now) / 1000),
    );
    throw new AppError('common.sendQuota', { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}
