import { createTransport } from 'nodemailer';
import { uuidv7 } from 'uuidv7';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';

/** What a provider hands back for a message it accepted: its own id, kept on the outbox row. */
export interface DeliveryReceipt {
  providerMessageId: string;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailSender {
  /** Stored in outbox_messages.provider. */
  readonly name: string;
  send(message: EmailMessage): Promise<DeliveryReceipt>;
  close(): void;
}

/** An SMS to send: `id` is the outbox message's (gateways that take a request id get it). */
export interface SmsMessage {
  id: string;
  to: string;
  text: string;
}

/** An SMS gateway: the local recorder, or a tenant's own (gateways/directory.ts). */
export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<DeliveryReceipt>;
  close(): void;
}

/** A voice call to place: `text` is read to the callee in `language`. */
export interface CallRequest {
  id: string;
  from: string;
  to: string;
  purpose: string;
  text: string;
  language: 'en' | 'vi';
}

/**
 * What a voice gateway answers for a call it took: a final status (the local recorder), or
 * PLACED when the gateway reports the call's progress later through its status callbacks.
 */
export interface CallReceipt {
  providerCallId: string;
  status: 'PLACED' | 'COMPLETED' | 'NO_ANSWER';
  startedAt: Date | null;
  endedAt: Date | null;
}

/** A voice-call gateway. */
export interface CallProvider {
  /** Stored in calls.provider. */
  readonly name: string;
  call(request: CallRequest): Promise<CallReceipt>;
}

/**
 * The default voice provider: records the call as made without a telephone network, so every
 * call the product decides to place is visible in SMS and call management (development, demos,
 * tests).
 */
export function createLocalCallProvider(clock: Clock): CallProvider {
  return {
    name: 'local-call',
    call: async () => {
      const now = clock.now();
      return { providerCallId: `local-call-${uuidv7()}`, status: 'COMPLETED', startedAt: now, endedAt: now };
    },
  };
}

// Bounded so that one hung server cannot hold a message beyond the dispatcher's lease.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** Email over SMTP (nodemailer). smtp:// upgrades with STARTTLS when the server offers it. */
export function createSmtpEmailSender(smtpUrl: string, from: string): EmailSender {
  const transport = createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS }, { from });
  return {
    name: 'smtp',
    send: async (message) => {
      const info = await transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        // Tells mail servers and clients not to auto-reply to a machine-sent message (RFC 3834).
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
      return { providerMessageId: info.messageId };
    },
    close: () => {
      transport.close();
    },
  };
}

/**
 * Without SMTP_URL the product still works out of the box: messages are recorded as delivered
 * by the `local` provider and can be read in outbox_messages (development, demos).
 */
export const localEmailSender: EmailSender = {
  name: 'local',
  send: async () => ({ providerMessageId: `local-${uuidv7()}` }),
  close: () => undefined,
};

/**
 * The default SMS provider: records the message as delivered without a gateway. The text stays
 * in outbox_messages, where the console's SMS management lists it.
 */
export const localSmsProvider: SmsProvider = {
  name: 'local-sms',
  send: async () => ({ providerMessageId: `local-sms-${uuidv7()}` }),
  close: () => undefined,
};

export function createEmailSender(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): EmailSender {
  return config.smtpUrl === undefined ? localEmailSender : createSmtpEmailSender(config.smtpUrl, config.mailFrom);
}

const SMS_PROVIDERS: Record<Config['smsProvider'], SmsProvider> = { local: localSmsProvider };

export function createSmsProvider(config: Pick<Config, 'smsProvider'>): SmsProvider {
  return SMS_PROVIDERS[config.smsProvider];
}
