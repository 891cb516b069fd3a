import { z } from 'zod';

/**
 * A tenant's SMS and voice gateways (spec §1 SOS calls and SMS, §3 SMS or call: provider). Each
 * channel has one: `local` records the message or call in SMS and call management without a
 * telephone network (the default), `twilio` sends SMS and places calls through Twilio's REST API,
 * `esms` sends brand-name SMS in Vietnam through eSMS.vn. Credentials are write-only: answers
 * show them masked.
 */
export const MESSAGE_GATEWAY_CHANNELS = ['SMS', 'CALL'] as const;
export type MessageGatewayChannel = (typeof MESSAGE_GATEWAY_CHANNELS)[number];
export const SMS_GATEWAYS = ['local', 'twilio', 'esms'] as const;
export const CALL_GATEWAYS = ['local', 'twilio'] as const;
export type MessageGatewayProvider = (typeof SMS_GATEWAYS)[number];

const credential = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max)
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable characters without spaces' });

/** Twilio: the account SID (AC + 32 hex) and its auth token. */
export const twilioCredentialsSchema = z.object({
  accountSid: z.string().trim().regex(/^AC[0-9a-fA-F]{32}$/, { error: 'must be AC followed by 32 hexadecimal digits' }),
  authToken: credential(128),
});
/** eSMS.vn: the account's ApiKey and SecretKey. */
export const esmsCredentialsSchema = z.object({ apiKey: credential(128), secretKey: credential(128) });

/** E.164 (+ and 8 to 15 digits): the number calls and Twilio SMS come from. */
const e164 = z.string().trim().regex(/^\+[1-9]\d{7,14}$/, { error: 'must be a phone number in international form, like +84901234567' });
/** A registered brand name (eSMS): letters, digits, space, dot, dash, at most 11 characters. */
const brandName = z.string().trim().regex(/^[A-Za-z0-9 .-]{1,11}$/, { error: 'must be the registered brand name: at most 11 letters, digits, spaces, dots or dashes' });

/**
 * PUT body. `credentials` may be left out to keep the stored ones (the same provider only);
 * choosing another provider needs its credentials.
 */
export const messageGatewayUpdateSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('local') }),
  z.object({ provider: z.literal('twilio'), sender: e164, credentials: twilioCredentialsSchema.optional() }),
  z.object({ provider: z.literal('esms'), sender: brandName, credentials: esmsCredentialsSchema.optional() }),
]);
export type MessageGatewayUpdate = z.infer<typeof messageGatewayUpdateSchema>;

export const messageGatewaySchema = z.object({
  channel: z.enum(MESSAGE_GATEWAY_CHANNELS),
  provider: z.enum(SMS_GATEWAYS),
  sender: z.string(),
  /** The stored credentials, each masked (`****` and the last 4 characters of long values). */
  credentials: z.record(z.string(), z.string()),
  /** Where the gateway reports deliveries and call progress (set up on the gateway's side for eSMS). */
  callbackUrl: z.string().nullable(),
  isDefault: z.boolean(),
  updatedAt: z.iso.datetime().nullable(),
});
export type MessageGateway = z.infer<typeof messageGatewaySchema>;

/** A test SMS or call to a number, sent at once through the stored gateway (not the outbox). */
export const messageGatewayTestSchema = z.object({ to: e164 });
export const messageGatewayTestResultSchema = z.object({
  ok: z.boolean(),
  provider: z.string(),
  /** The gateway's id of the message or call. */
  providerId: z.string().nullable(),
  /** What the gateway answered when it refused (its own words). */
  error: z.string().nullable(),
});
export type MessageGatewayTestResult = z.infer<typeof messageGatewayTestResultSchema>;
