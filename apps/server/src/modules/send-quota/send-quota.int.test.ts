import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEND_QUOTAS } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant, createTenantUser } from '../../../test/factories.js';
import { HOUR, MINUTE, ManualClock } from '../../lib/clock.js';
import { findPlatformTenant } from '../tenants/store.js';
import { PNG, filePart, multipart, type Part } from '../tenants/test-support.js';
import { newCallerIp, poster } from '../verification/test-support.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let dataDir: string;
const clock = new ManualClock();
beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'rpm-send-quota-'));
  app = await createTestApp(testDb.database, { dataDir }, clock);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Every test starts one minute into a fresh hour window, so Retry-After is known exactly. */
beforeEach(() => {
  const now = clock.now().getTime();
  clock.advance(Math.floor(now / HOUR) * HOUR + HOUR + MINUTE - now);
});
const secondsLeftInWindow = () => Math.ceil((HOUR - (clock.now().getTime() % HOUR)) / 1000);
/** Past the one-time code's 60-second resend cooldown, so only the quotas can refuse. */
const pastCooldown = () => {
  clock.advance(61_000);
};

const PASSWORD = 'Strong#Pass7';
const SEND_QUOTA_EN =
  'Too many emails or text messages have been requested. Please try again later (at most in an hour)';
const SEND_QUOTA_VI = 'Đã yêu cầu gửi quá nhiều email hoặc tin nhắn. Vui lòng thử lại sau (tối đa một giờ)';
const newEmail = () => `someone-${randomBytes(5).toString('hex')}@third-party.example`;
const newPhone = () => `09${String(randomInt(10 ** 8)).padStart(8, '0')}`;

function registration(tenant: string, email: string, overrides: Record<string, unknown> = {}) {
  return {
    tenant,
    firstName: 'Lan',
    lastName: 'Tran',
    email,
    birthday: '1990-05-17',
    password: PASSWORD,
    purpose: 'PERSONAL_MONITORING',
    acceptTerms: true,
    acceptPrivacy: true,
    ...overrides,
  };
}

async function messagesOfTenant(tenantId: string, channel?: 'EMAIL' | 'SMS'): Promise<number> {
  const [row] = await asOwner<{ n: number }>(
    testDb.ownerUrl,
    'SELECT count(*)::int AS n FROM outbox_messages WHERE tenant_id = $1 AND ($2::text IS NULL OR channel = $2)',
    [tenantId, channel ?? null],
  );
  return row?.n ?? 0;
}

const isQuotaRefusal = (response: LightMyRequestResponse) =>
  response.statusCode === 429 && response.json<{ code: string }>().code === 'common.sendQuota';

/** What a caller sees of an answer (the request id aside). */
function answerOf(response: LightMyRequestResponse) {
  const { requestId: _requestId, ...body } = response.json<Record<string, unknown>>();
  return { status: response.statusCode, retryAfter: response.headers['retry-after'], body };
}

function report(what: string, attempts: number, sent: number, quota: number) {
  console.log(
    `[send quota] ${what}: ${attempts} attempts, ${sent} sent, quota ${quota}, past the quota: ${Math.max(0, sent - quota)}`,
  );
}

describe('per client address', () => {
  it('25 registrations of 25 third-party emails from one address: 10 emails, the rest 429 with Retry-After, nothing queued', async () => {
    const tenant = await createTenant(testDb.database);
    const ip = newCallerIp();
    const post = poster(app, ip);
    const answers: LightMyRequestResponse[] = [];
    for (let attempt = 0; attempt < 25; attempt++)
      answers.push(await post('/account/register', registration(tenant.code, newEmail())));

    const sent = await messagesOfTenant(tenant.id);
    report('registrations from one address', answers.length, sent, SEND_QUOTAS.perClientAddress);
    expect(sent).toBe(SEND_QUOTAS.perClientAddress);
    expect(answers.slice(0, SEND_QUOTAS.perClientAddress).map((answer) => answer.statusCode)).toEqual(
      Array<number>(SEND_QUOTAS.perClientAddress).fill(200),
    );
    for (const refused of answers.slice(SEND_QUOTAS.perClientAddress)) {
      expect(answerOf(refused)).toEqual({
        status: 429,
        retryAfter: String(secondsLeftInWindow()),
        body: { resultCode: 500, code: 'common.sendQuota', message: SEND_QUOTA_EN },
      });
    }
    // No account was created for a refused registration either.
    const [users] = await asOwner<{ n: number }>(
      testDb.ownerUrl,
      'SELECT count(*)::int AS n FROM users WHERE tenant_id = $1',
      [tenant.id],
    );
    expect(users?.n).toBe(SEND_QUOTAS.perClientAddress);

    // The message is in the caller's language; every send call of the address is refused now.
    const inVietnamese = await poster(
      app,
      ip,
      'vi',
    )('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() });
    expect(answerOf(inVietnamese)).toMatchObject({
      status: 429,
      body: { code: 'common.sendQuota', message: SEND_QUOTA_VI },
    });
    expect(
      isQuotaRefusal(await post('/auth/oauth/otp/mail', { tenant: tenant.code, email: newEmail() })),
    ).toBe(true);
    expect(
      isQuotaRefusal(
        await post('/account/forgot-password/send', {
          tenant: tenant.code,
          type: 'EMAIL',
          username: newEmail(),
        }),
      ),
    ).toBe(true);
    expect(await messagesOfTenant(tenant.id)).toBe(SEND_QUOTAS.perClientAddress);
  });

  it('a parallel burst of 30 from one address sends exactly the quota', async () => {
    const tenant = await createTenant(testDb.database);
    const post = poster(app, newCallerIp());
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() }),
      ),
    );
    const sent = await messagesOfTenant(tenant.id);
    report('parallel burst of 30 from one address', answers.length, sent, SEND_QUOTAS.perClientAddress);
    expect(sent).toBe(SEND_QUOTAS.perClientAddress);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(SEND_QUOTAS.perClientAddress);
    expect(answers.filter(isQuotaRefusal)).toHaveLength(30 - SEND_QUOTAS.perClientAddress);
  });

  it('a burst of login codes to 12 registered phones from one address sends 10 SMS', async () => {
    const tenant = await createTenant(testDb.database);
    const phones = Array.from({ length: 12 }, newPhone);
    for (const phone of phones)
      await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', phone });
    const post = poster(app, newCallerIp());
    const answers = await Promise.all(
      phones.map((phoneNumber) => post('/auth/oauth/otp/send', { tenant: tenant.code, phoneNumber })),
    );
    const sent = await messagesOfTenant(tenant.id, 'SMS');
    report(
      'login SMS to registered phones from one address',
      answers.length,
      sent,
      SEND_QUOTAS.perClientAddress,
    );
    expect(sent).toBe(SEND_QUOTAS.perClientAddress);
    expect(answers.filter(isQuotaRefusal)).toHaveLength(2);
  });

  it('counts an IPv6 caller by its /64 network', async () => {
    const tenant = await createTenant(testDb.database);
    const network = `2001:db8:${randomInt(0xffff).toString(16)}:${randomInt(0xffff).toString(16)}`;
    const answers: LightMyRequestResponse[] = [];
    for (let host = 1; host <= SEND_QUOTAS.perClientAddress + 2; host++) {
      answers.push(
        await poster(app, `${network}::${host.toString(16)}`)('/auth/create-verification-token', {
          tenant: tenant.code,
          email: newEmail(),
        }),
      );
    }
    expect(await messagesOfTenant(tenant.id)).toBe(SEND_QUOTAS.perClientAddress);
    expect(answers.filter(isQuotaRefusal)).toHaveLength(2);
  });
});

describe('per destination', () => {
  it('one email hammered from 12 addresses receives 5 codes', async () => {
    const tenant = await createTenant(testDb.database);
    const email = newEmail();
    const answers: LightMyRequestResponse[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      pastCooldown();
      // The same mailbox, however it is written.
      const written = attempt % 2 === 0 ? email : email.toUpperCase().replace('@', `+${attempt}@`);
      answers.push(
        await poster(app, newCallerIp())('/auth/create-verification-token', {
          tenant: tenant.code,
          email: written,
        }),
      );
    }
    const sent = await messagesOfTenant(tenant.id);
    report('one email from 12 addresses', answers.length, sent, SEND_QUOTAS.perDestination);
    expect(sent).toBe(SEND_QUOTAS.perDestination);
    expect(answers.map((answer) => answer.statusCode)).toEqual([
      ...Array<number>(5).fill(200),
      ...Array<number>(7).fill(429),
    ]);
    expect(answers.slice(5).every(isQuotaRefusal)).toBe(true);
  });

  it('a registered phone asked for reset codes under each of its names from many addresses receives 5 SMS', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const user = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', phone });
    const names = [phone, user.email ?? ''];
    const answers: LightMyRequestResponse[] = [];
    for (let attempt = 0; attempt < 9; attempt++) {
      pastCooldown();
      const username = names[attempt % names.length] ?? phone;
      answers.push(
        await poster(app, newCallerIp())('/account/forgot-password/send', {
          tenant: tenant.code,
          type: 'SMS',
          username,
        }),
      );
    }
    const sent = await messagesOfTenant(tenant.id, 'SMS');
    report('reset SMS to one phone from 9 addresses', answers.length, sent, SEND_QUOTAS.perDestination);
    expect(sent).toBe(SEND_QUOTAS.perDestination);
    expect(answers.filter(isQuotaRefusal)).toHaveLength(9 - SEND_QUOTAS.perDestination);
  });

  it('a parallel burst of 30 addresses at one destination: exactly 5 get past the quota', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', phone });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        poster(app, newCallerIp())('/account/forgot-password/send', {
          tenant: tenant.code,
          type: 'SMS',
          username: phone,
        }),
      ),
    );
    const sent = await messagesOfTenant(tenant.id, 'SMS');
    report('parallel burst of 30 addresses at one phone', answers.length, sent, SEND_QUOTAS.perDestination);
    // Five pass the quota; of those the code's 60-second cooldown lets one through.
    expect(answers.filter(isQuotaRefusal)).toHaveLength(30 - SEND_QUOTAS.perDestination);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(sent).toBe(1);
  });

  it('an unknown account counts and answers exactly like a known one', async () => {
    const tenant = await createTenant(testDb.database);
    const known = (await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT' })).email ?? '';
    const unknown = newEmail();
    const knownAnswers: ReturnType<typeof answerOf>[] = [];
    const unknownAnswers: ReturnType<typeof answerOf>[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      pastCooldown();
      for (const [username, answers] of [
        [known, knownAnswers],
        [unknown, unknownAnswers],
      ] as const) {
        answers.push(
          answerOf(
            await poster(app, newCallerIp())('/account/forgot-password/send', {
              tenant: tenant.code,
              type: 'EMAIL',
              username,
            }),
          ),
        );
      }
    }
    expect(knownAnswers).toEqual(unknownAnswers);
    expect(knownAnswers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Only the real account was written to.
    expect(await messagesOfTenant(tenant.id)).toBe(SEND_QUOTAS.perDestination);
  });

  it('comes before "email already exists" and "phone already exists"', async () => {
    const tenant = await createTenant(testDb.database);
    const phone = newPhone();
    const taken = await createTenantUser(testDb.database, tenant.id, { role: 'PATIENT', phone });
    const codes: string[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const answer = await poster(app, newCallerIp())(
        '/account/register',
        registration(tenant.code, taken.email ?? ''),
      );
      codes.push(answer.json<{ code: string }>().code);
    }
    expect(codes).toEqual([
      ...Array<string>(5).fill('account.emailExists'),
      'common.sendQuota',
      'common.sendQuota',
    ]);

    const post = poster(app, newCallerIp());
    const phoneCodes: string[] = [];
    for (let attempt = 0; attempt <= SEND_QUOTAS.perClientAddress; attempt++) {
      phoneCodes.push(
        (await post('/account/register', registration(tenant.code, newEmail(), { phone }))).json<{
          code: string;
        }>().code,
      );
    }
    expect(phoneCodes).toEqual([
      ...Array<string>(SEND_QUOTAS.perClientAddress).fill('account.phoneExists'),
      'common.sendQuota',
    ]);
    expect(await messagesOfTenant(tenant.id)).toBe(0);
  });
});

describe('per tenant', () => {
  it('sends at most 200 an hour for one tenant, from any number of addresses; other tenants are unaffected', async () => {
    const tenant = await createTenant(testDb.database);
    const attempts = SEND_QUOTAS.perTenant + 10;
    const addresses = Array.from({ length: Math.ceil(attempts / SEND_QUOTAS.perClientAddress) }, newCallerIp);
    const answers: LightMyRequestResponse[] = [];
    for (const ip of addresses) {
      const post = poster(app, ip);
      answers.push(
        ...(await Promise.all(
          Array.from({ length: SEND_QUOTAS.perClientAddress }, () =>
            post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() }),
          ),
        )),
      );
    }
    const sent = await messagesOfTenant(tenant.id);
    report('one tenant from many addresses', answers.length, sent, SEND_QUOTAS.perTenant);
    expect(sent).toBe(SEND_QUOTAS.perTenant);
    expect(answers.filter(isQuotaRefusal)).toHaveLength(answers.length - SEND_QUOTAS.perTenant);

    const other = await createTenant(testDb.database);
    expect(
      (
        await poster(app, newCallerIp())('/auth/create-verification-token', {
          tenant: other.code,
          email: newEmail(),
        })
      ).statusCode,
    ).toBe(200);
    expect(await messagesOfTenant(other.id)).toBe(1);
  });
});

describe('the hour window', () => {
  it('opens again when the window ends; ended windows are purged; only keyed hashes are stored', async () => {
    const tenant = await createTenant(testDb.database);
    const ip = newCallerIp();
    const post = poster(app, ip);
    const emails = Array.from({ length: SEND_QUOTAS.perClientAddress + 1 }, newEmail);
    for (const email of emails) await post('/auth/create-verification-token', { tenant: tenant.code, email });
    const refused = await post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() });
    expect(isQuotaRefusal(refused)).toBe(true);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBe(secondsLeftInWindow());

    clock.advance(retryAfter * 1000 - 1000);
    expect(
      isQuotaRefusal(
        await post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() }),
      ),
    ).toBe(true);
    expect(
      (await post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() })).headers[
        'retry-after'
      ],
    ).toBe('1');
    clock.advance(1000);
    const again = await post('/auth/create-verification-token', { tenant: tenant.code, email: newEmail() });
    expect(again.statusCode).toBe(200);
    expect(await messagesOfTenant(tenant.id)).toBe(SEND_QUOTAS.perClientAddress + 1);

    const windows = await asOwner<{ window_start: Date; key_hash: Buffer }>(
      testDb.ownerUrl,
      'SELECT window_start, key_hash FROM send_quota_counters',
    );
    expect(
      windows.every((row) => row.window_start.getTime() === Math.floor(clock.now().getTime() / HOUR) * HOUR),
    ).toBe(true);
    const stored = await asOwner<{ row: string }>(
      testDb.ownerUrl,
      'SELECT row_to_json(c)::text AS row FROM send_quota_counters c',
    );
    expect(windows.every((row) => row.key_hash.length === 32)).toBe(true);
    for (const text of [ip, ...emails, tenant.id])
      expect(stored.some((row) => row.row.includes(text))).toBe(false);
  });
});

describe('trial requests', () => {
  it('counts the requester email: the sixth request naming it is refused and leaves nothing behind', async () => {
    const platform = await findPlatformTenant(testDb.database.system);
    const email = newEmail();
    const submit = () => {
      const id = randomBytes(4).toString('hex');
      const fields: Record<string, string> = {
        organizationName: `Quota Clinic ${id}`,
        officialName: 'Quota Clinic Co., Ltd',
        requestedCode: `quota-${id}`,
        requesterName: 'Minh Pham',
        email,
        phone: '0981234567',
        primaryColor: '#FF8800',
        message: 'We run three clinics.',
        language: 'en',
      };
      const parts: Part[] = [
        ...Object.entries(fields).map(([name, content]) => ({ name, content })),
        filePart('logoSquare', PNG, 'square.png'),
        filePart('logoHorizontal', PNG, 'wide.png'),
      ];
      return app.inject({
        method: 'POST',
        url: '/manage/tenant-request',
        remoteAddress: newCallerIp(),
        ...multipart(parts),
      });
    };
    const requestsNaming = async () =>
      (
        await asOwner<{ n: number }>(
          testDb.ownerUrl,
          'SELECT count(*)::int AS n FROM tenant_requests WHERE email = $1',
          [email],
        )
      )[0]?.n;
    const files = async () =>
      (await readdir(path.join(dataDir, 'files', platform.id, 'trialrequests')).catch(() => [])).length;

    for (let attempt = 0; attempt < SEND_QUOTAS.perDestination; attempt++)
      expect((await submit()).statusCode).toBe(200);
    const filesBefore = await files();
    const refused = await submit();
    expect(answerOf(refused)).toMatchObject({
      status: 429,
      retryAfter: String(secondsLeftInWindow()),
      body: { code: 'common.sendQuota' },
    });
    expect(await requestsNaming()).toBe(SEND_QUOTAS.perDestination);
    expect(await files()).toBe(filesBefore);
  });
});
