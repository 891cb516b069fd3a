import {
  nextInvitationStatus,
  resendAvailableAt,
  type ErrorCode,
  type InvitationAction,
  type InvitationStatus,
} from '@rpm/contracts';

/**
 * What an invitation move decides (spec §4 relative invitation: sent, resent, confirmed, deleted;
 * a resend is blocked within 5 minutes of the last send). Pure: the services perform the answer.
 */
export type InvitationDecision =
  | { kind: 'MOVE'; next: InvitationStatus }
  | { kind: 'REFUSED'; code: Extract<ErrorCode, 'contact.invalidTransition' | 'contact.resendTooSoon'>; retryAfterSeconds?: number };

export function decideInvitationMove(
  current: { status: InvitationStatus; lastSentAt: Date },
  action: InvitationAction,
  now: Date,
): InvitationDecision {
  const next = nextInvitationStatus(current.status, action);
  if (next === undefined) return { kind: 'REFUSED', code: 'contact.invalidTransition' };
  if (action === 'resend') {
    const waitMs = resendAvailableAt(current.lastSentAt).getTime() - now.getTime();
    if (waitMs > 0) return { kind: 'REFUSED', code: 'contact.resendTooSoon', retryAfterSeconds: Math.ceil(waitMs / 1000) };
  }
  return { kind: 'MOVE', next };
}

/**
 * A phone as the comparisons of this module see it: its digits only, so "+84901…" and "84901…"
 * name the same phone. Stored phones keep the form they were typed in.
 */
export function phoneDigits(phone: string): string {
  return phone.replace(/\D/g, '');
}

/** The stored forms a phone with these digits may have (with or without the leading +). */
export function phoneForms(phone: string): string[] {
  const digits = phoneDigits(phone);
  return [digits, `+${digits}`];
}
