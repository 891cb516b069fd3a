import webPush from 'web-push';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), {
    error: 'must be a URL like postgres://user:password@host:5432/database',
  });

const smtpUrl = z
  .string()
  .refine((value) => /^smtps?:\/\//.test(value) && URL.canParse(value), {
    error: 'must be a URL like smtp://user:password@host:587 (STARTTLS when offered) or smtps://user:password@host:465',
  });

// "address@host" or "Display Name <address@host>": what nodemailer puts in the From header.
const mailFrom = z
  .string()
  .trim()
  .regex(/^(?:[^<>@]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
    error: 'must be an address like no-reply@example.com or "Clinic <no-reply@example.com>"',
  });

/** One proxy: an IPv4 or IPv6 address, or a CIDR range of them (10.0.0.0/8, fd00::/8). */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

// "off", or the reverse proxies whose X-Forwarded-For is believed: "127.0.0.1,10.0.0.0/8".
const trustProxy = z
  .string()
  .trim()
  .transform((value) => (value === 'off' ? [] : value.split(',').map((part) => part.trim())))
  .refine((proxies) => proxies.every(isAddressOrRange), {
    error: 'must be off or a comma-separated list of proxy addresses or CIDR ranges, like 127.0.0.1,10.0.0.0/8',
  });

// Origins (scheme://host[:port]) besides the server's own whose pages may make cookie-authenticated writes.
const allowedOrigins = z
  .string()
  .trim()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .refine(
    (origins) =>
      origins.every((origin) => /^https?:\/\/[^/?#@\s]+$/.test(origin) && URL.canParse(origin) && new URL(origin).origin !== 'null'),
    { error: 'must be a comma-separated list of origins like https://console.example.com,https://rpm.example.org:8443' },
  )
  .transform((origins) => origins.map((origin) => new URL(origin).origin));

// ICE servers for the video calls: "stun:host:3478,stun:other:3478" or turn:/turns: URLs.
const iceUrls = (schemes: string) =>
  z
    .string()
    .trim()
    .transform((value) => value.split(',').map((part) => part.trim()).filter((part) => part !== ''))
    .refine((urls) => urls.every((url) => new RegExp(`^(${schemes}):[^\\s/?#]+(\\?transport=(udp|tcp))?$`).test(url)), {
      error: `must be a comma-separated list of ${schemes.split('|').join(': or ')}: URLs like ${schemes.split('|')[0]}:turn.example.com:3478`,
    });

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' })
    .default(8080),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_APP_URL: postgresUrl.optional(),
  DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
  SECRETS_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hexadecimal characters (32 bytes), e.g. from `openssl rand -hex 32`' })
    .optional(),
  EMBEDDED_PG_PORT: z.coerce.number({ error: 'must be a number' }).int().min(1).max(65535).default(54329),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  SEED_DEMO: booleanFromEnv.default(true),
  SIMULATOR: z.enum(['on', 'off'], { error: 'must be on or off' }).optional(),
  SIMULATOR_OPERATOR: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  CONSOLE_DIR: z.string().optional(),
  COOKIE_SECURE: booleanFromEnv.optional(),
  ALLOWED_ORIGINS: allowedOrigins.default([]),
  SESSION_HOURS: z.coerce.number({ error: 'must be a number' }).positive().max(24 * 30).default(12),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailFrom.default('Remote patient monitoring <no-reply@localhost>'),
  SMS_PROVIDER: z.enum(['local'], { error: 'must be local (the only SMS provider built in so far)' }).default('local'),
  OUTBOX_POLL_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(100, { error: 'must be between 100 and 60000 milliseconds' })
    .max(60_000, { error: 'must be between 100 and 60000 milliseconds' })
    .default(2000),
  JOBS_ENABLED: booleanFromEnv.default(true),
  SERVER_PROCESSES: z.coerce.number({ error: 'must be a number' }).int().min(1, { error: 'must be at least 1' }).max(64, { error: 'must be at most 64' }).default(1),
  REPLICA_MAX_LAG_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(0, { error: 'must be between 0 and 600000 milliseconds' })
    .max(600_000, { error: 'must be between 0 and 600000 milliseconds' })
    .default(5000),
  TRUST_PROXY: trustProxy.default([]),
  STUN_URLS: iceUrls('stun|stuns').default([]),
  TURN_URLS: iceUrls('turn|turns').default([]),
  TURN_SECRET: z.string().min(16, { error: 'must be at least 16 characters (coturn static-auth-secret)' }).optional(),
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, { error: 'must be a P-256 public key in URL-safe base64 (87 characters)' }).optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'must be a P-256 private key in URL-safe base64 (43 characters)' }).optional(),
  WEB_PUSH_CA_FILE: z.string().min(1).optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, { error: 'must be a mailto: address or an https: URL' }).default('mailto:push@rpm.local'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be the http(s) address the server is reached at, like https://rpm.example.org' }).optional(),
  TWILIO_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://api.twilio.com' }).default('https://api.twilio.com'),
  ESMS_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://rest.esms.vn' }).default('https://rest.esms.vn'),
  VNPAY_PAYMENT_URL: z.url({ protocol: /^https?$/, error: 'must be VNPay\'s payment page, like https://sandbox.vnpayment.vn/paymentv2/vpcpay.html' }).default('https://pay.vnpay.vn/vpcpay.html'),
  VNPAY_API_URL: z.url({ protocol: /^https?$/, error: 'must be VNPay\'s merchant API, like https://sandbox.vnpayment.vn/merchant_webapi/api/transaction' }).default('https://merchant.vnpay.vn/merchant_webapi/api/transaction'),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://api.stripe.com' }).default('https://api.stripe.com'),
  OCR_CLOUD_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://vision.googleapis.com' }).default('https://vision.googleapis.com'),
});

export interface Config {
  environment: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Owner connection: runs migrations. Absent means "start the embedded PostgreSQL". */
  databaseUrl: string | undefined;
  /** Connection used for requests; a role that owns nothing and cannot bypass RLS. */
  databaseAppUrl: string | undefined;
  dataDir: string;
  secretsKey: Buffer;
  embeddedPostgresPort: number;
  logLevel: string;
  seedDemo: boolean;
  /** Run the simulated wearable fleet for the demo tenant after the server listens (serve only). */
  simulator: boolean;
  /** With the simulator, a simulated duty operator works the demo tenant's SOS cases (SIMULATOR_OPERATOR). */
  simulatorOperator: boolean;
  consoleDir: string | undefined;
  /** Secure session cookies (and HSTS): always, never, or 'auto' (always except plain HTTP to localhost). */
  cookieSecure: boolean | 'auto';
  /** Origins besides the server's own allowed to make cookie-authenticated writes and open /ws. */
  allowedOrigins: string[];
  sessionHours: number;
  /** SMTP server for email; absent means the `local` provider (messages stay in the outbox as delivered). */
  smtpUrl: string | undefined;
  /** From header of every email. */
  mailFrom: string;
  /** SMS provider adapter; `local` records messages in the outbox without sending them. */
  smsProvider: 'local';
  /** How often the outbox dispatcher looks for due messages (it is also kicked after each request). */
  outboxPollMilliseconds: number;
  /** Run the durable job runner (graphile-worker) in this process. */
  jobsEnabled: boolean;
  /**
   * Server processes `serve` runs, sharing the port (node:cluster): one per core lets requests of
   * one process wait on the database while another parses. 1: this process serves itself.
   */
  serverProcesses: number;
  /**
   * How far behind its primary a DEDICATED tenant's replica may be and still serve reads (lists,
   * dashboards, statistics, exports); further behind, those reads go to the primary. 0: never.
   */
  replicaMaxLagMilliseconds: number;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; empty:
   * none, request.ip is always the connection's address.
   */
  trustProxy: string[];
  /**
   * ICE servers of the video calls: STUN URLs, and TURN URLs with the secret shared with the TURN
   * server (coturn's use-auth-secret), from which each call gets credentials valid for a day.
   */
  ice: { stunUrls: string[]; turnUrls: string[]; turnSecret: string | undefined };
  /**
   * Web Push's VAPID key pair (RFC 8292) and contact: from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, or
   * generated once into DATA_DIR/vapid.json (so subscriptions survive restarts).
   */
  webPush: { publicKey: string; privateKey: string; subject: string; ca?: string | undefined };
  /** Origin of the cloud OCR service (Google Cloud Vision) used by tenants with an OCR API key; tests point it elsewhere. */
  ocrCloudUrl?: string | undefined;
  /**
   * SMS and voice gateways: the address gateways call back (PUBLIC_URL, default
   * http://localhost:PORT) and the gateways' API origins (tests point them at local servers).
   */
  gateways?: { publicUrl: string; twilioApiUrl: string; esmsApiUrl: string } | undefined;
  /** Payment providers' addresses: VNPay's payment page and merchant API, Stripe's API origin (tests point them at local servers). */
  payments?: { vnpayPaymentUrl: string; vnpayApiUrl: string; stripeApiUrl: string } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the configuration from environment variables. Each bad value is reported
 * by name with what it must look like, all at once, so one start shows every problem.
 */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.');
        const given = present[name];
        return `${name}: ${issue.message}${given === undefined || name.includes('KEY') || name.includes('URL') ? '' : ` (got "${given}")`}`;
      }),
    );
  }
  const values = parsed.data;
  if ((values.VAPID_PUBLIC_KEY === undefined) !== (values.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError(['VAPID_PRIVATE_KEY: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are given together']);
  }
  if (values.TURN_URLS.length > 0 && values.TURN_SECRET === undefined) {
    throw new ConfigError(['TURN_SECRET: is required with TURN_URLS (the static-auth-secret of the TURN server)']);
  }
  const dataDir = path.resolve(values.DATA_DIR);
  if (values.NODE_ENV === 'production' && !values.SECRETS_KEY) {
    throw new ConfigError(['SECRETS_KEY: is required in production (64 hexadecimal characters)']);
  }
  return {
    environment: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    databaseUrl: values.DATABASE_URL,
    databaseAppUrl: values.DATABASE_APP_URL,
    dataDir,
    secretsKey: values.SECRETS_KEY ? Buffer.from(values.SECRETS_KEY, 'hex') : readOrCreateLocalKey(dataDir),
    embeddedPostgresPort: values.EMBEDDED_PG_PORT,
    logLevel: values.LOG_LEVEL,
    seedDemo: values.SEED_DEMO,
    // On by default where the demo tenant is seeded, outside production; SIMULATOR=off stops it.
    simulator:
      values.SIMULATOR === undefined
        ? values.SEED_DEMO && values.NODE_ENV !== 'production'
        : values.SIMULATOR === 'on',
    // The simulated duty operator works the demo tenant's SOS cases while the simulator runs.
    simulatorOperator: values.SIMULATOR_OPERATOR === 'on',
    consoleDir: values.CONSOLE_DIR === undefined ? undefined : path.resolve(values.CONSOLE_DIR),
    cookieSecure: values.COOKIE_SECURE ?? 'auto',
    allowedOrigins: values.ALLOWED_ORIGINS,
    sessionHours: values.SESSION_HOURS,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    smsProvider: values.SMS_PROVIDER,
    outboxPollMilliseconds: values.OUTBOX_POLL_MS,
    jobsEnabled: values.JOBS_ENABLED,
    serverProcesses: values.SERVER_PROCESSES,
    replicaMaxLagMilliseconds: values.REPLICA_MAX_LAG_MS,
    trustProxy: values.TRUST_PROXY,
    ocrCloudUrl: values.OCR_CLOUD_URL,
    gateways: {
      publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
      twilioApiUrl: values.TWILIO_API_URL.replace(/\/+$/, ''),
      esmsApiUrl: values.ESMS_API_URL.replace(/\/+$/, ''),
    },
    payments: {
      vnpayPaymentUrl: values.VNPAY_PAYMENT_URL,
      vnpayApiUrl: values.VNPAY_API_URL,
      stripeApiUrl: values.STRIPE_API_URL.replace(/\/+$/, ''),
    },
    ice: { stunUrls: values.STUN_URLS, turnUrls: values.TURN_URLS, turnSecret: values.TURN_SECRET },
    webPush: {
      ...(values.VAPID_PUBLIC_KEY !== undefined && values.VAPID_PRIVATE_KEY !== undefined
        ? { publicKey: values.VAPID_PUBLIC_KEY, privateKey: values.VAPID_PRIVATE_KEY }
        : readOrCreateVapidKeys(dataDir)),
      subject: values.VAPID_SUBJECT,
      // Extra certificate authorities to trust for push services (a private one, a proxy's).
      ca: values.WEB_PUSH_CA_FILE === undefined ? undefined : readFileSync(values.WEB_PUSH_CA_FILE, 'utf8'),
    },
  };
}

/** Web Push keys kept in the data directory when none are configured (generated on first start). */
function readOrCreateVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const keys = JSON.parse(readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown };
    if (typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string') return { publicKey: keys.publicKey, privateKey: keys.privateKey };
    throw new ConfigError([`${file}: must hold publicKey and privateKey; delete it to generate new keys`]);
  }
  mkdirSync(dataDir, { recursive: true });
  const keys = webPush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys) + '\n', { mode: 0o600 });
  return keys;
}

/**
 * Outside production a missing SECRETS_KEY is generated once and kept in the data directory, so
 * the quick start needs no configuration and encrypted values survive restarts.
 */
function readOrCreateLocalKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secrets.key');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
    throw new ConfigError([`${file}: must hold 64 hexadecimal characters; delete it to generate a new key`]);
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex') + '\n', { mode: 0o600 });
  return key;
}
