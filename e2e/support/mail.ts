import {
  startMailCatcher,
  type CaughtMail,
  type MailCatcher,
} from '../../apps/server/src/modules/messaging/mail-catcher.js';

export { startMailCatcher, type MailCatcher };

/**
 * The one-time code of the next mail to `address` that arrives after `since` messages had been
 * caught (take `catcher.messages.length` before the action that sends it), so a test never reads
 * an older code sent to the same address.
 */
export async function waitForCode(
  catcher: MailCatcher,
  address: string,
  since: number,
): Promise<{ code: string; mail: CaughtMail }> {
  const wanted = address.toLowerCase();
  const mail = await catcher.waitFor(
    (candidate) =>
      catcher.messages.indexOf(candidate) >= since && candidate.to.some((to) => to.toLowerCase() === wanted),
    15_000,
  );
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (code === undefined) throw new Error(`no 6-digit code in the mail to ${address}: ${mail.text}`);
  return { code, mail };
}
