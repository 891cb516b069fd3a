import { asOwner } from '../../../test/database.js';

/** The one-time code in an invitation SMS (en "Code: 123456", vi "Mã: 123456"). */
export function codeInInvitationText(body: string): string {
  const match = /(?:Code|Mã): (\d{6})\./u.exec(body);
  if (match?.[1] === undefined) throw new Error(`no invitation code in: ${body}`);
  return match[1];
}

/** The code of the last invitation SMS queued to this phone (as its holder reads it). */
export async function lastInvitationCodeTo(ownerUrl: string, recipient: string): Promise<string> {
  const [message] = await asOwner<{ body: string }>(
    ownerUrl,
    `SELECT body FROM outbox_messages WHERE purpose = 'FOLLOWER_INVITATION' AND recipient = $1 ORDER BY id DESC LIMIT 1`,
    [recipient],
  );
  if (message === undefined) throw new Error(`no invitation SMS to ${recipient}`);
  return codeInInvitationText(message.body);
}

/** A 6-digit code that is not `code`. */
export const otherCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
