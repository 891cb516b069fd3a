/** Test support for the verification tests: what is really stored, read as the owner. */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { asOwner } from '../../../test/database.js';

/** A fresh caller address per test, so one test's failures never throttle another's calls. */
export function newCallerIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface StoredMessage {
  id: string;
  tenant_id: string;
  channel: string;
  recipient: string;
  subject: string;
  body: string;
  purpose: string;
  status: string;
  attempts: number;
  provider: string | null;
  provider_message_id: string | null;
}

/** Every outbox message to a recipient, oldest first. */
export async function messagesTo(ownerUrl: string, recipient: string): Promise<StoredMessage[]> {
  return asOwner<StoredMessage>(ownerUrl, 'SELECT * FROM outbox_messages WHERE recipient = $1 ORDER BY created_at, id', [recipient]);
}

export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no 6-digit code in: ${text}`);
  return match[1];
}

/** The code of the latest message to a recipient (as a person would read it on their phone). */
export async function latestCodeTo(ownerUrl: string, recipient: string): Promise<string> {
  const messages = await messagesTo(ownerUrl, recipient);
  const latest = messages.at(-1);
  if (latest === undefined) throw new Error(`no message to ${recipient}`);
  return codeIn(latest.body);
}

/** Rows per table of one tenant, to prove a refused call stored nothing. */
export async function countTenantRows(ownerUrl: string, tenantId: string) {
  const [row] = await asOwner<{ users: number; challenges: number; messages: number; audit: number }>(
    ownerUrl,
    `SELECT (SELECT count(*)::int FROM users WHERE tenant_id = $1) AS users,
            (SELECT count(*)::int FROM otp_challenges WHERE tenant_id = $1) AS challenges,
            (SELECT count(*)::int FROM outbox_messages WHERE tenant_id = $1) AS messages,
            (SELECT count(*)::int FROM audit_log WHERE tenant_id = $1) AS audit`,
    [tenantId],
  );
  if (row === undefined) throw new Error('no counts');
  return row;
}

export interface ErrorBody {
  resultCode: number;
  code: string;
  message: string;
  fieldErrors?: { field: string; code: string; message: string }[];
}

export function errorOf(response: LightMyRequestResponse): ErrorBody & { status: number } {
  return { status: response.statusCode, ...response.json<ErrorBody>() };
}

/** A POST from one caller address, in a language. */
export function poster(app: FastifyInstance, ip: string, language = 'en') {
  return (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress: ip, headers: { 'accept-language': language } });
}
