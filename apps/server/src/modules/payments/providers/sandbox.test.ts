import { describe, expect, it } from 'vitest';
import { createSandboxProvider, openSandboxToken, signSandboxToken } from './sandbox.js';
import { PaymentSignatureError } from './provider.js';

const KEY = Buffer.alloc(32, 7);
const TENANT = '01890000-0000-7000-8000-000000000001';
const now = new Date('2025-01-01T00:00:00Z');
const token = { tenantId: TENANT, orderId: 'ORDER-1', amountMinor: 1250, currency: 'CAD' as const, expiresAt: now.getTime() / 1000 + 60 };

describe('sandbox tokens', () => {
  it('open to the order they were signed for, until they expire', () => {
    const signed = signSandboxToken(KEY, token);
    expect(openSandboxToken(KEY, signed, now)).toEqual(token);
    expect(openSandboxToken(KEY, signed, new Date(now.getTime() + 61_000))).toBeUndefined();
  });

  it('refuse another key, an altered order and anything malformed', () => {
    const signed = signSandboxToken(KEY, token);
    expect(openSandboxToken(Buffer.alloc(32, 8), signed, now)).toBeUndefined();
    const [, mac] = signed.split('.');
    const altered = `${Buffer.from(JSON.stringify([TENANT, 'ORDER-1', 1, 'CAD', token.expiresAt])).toString('base64url')}.${mac ?? ''}`;
    expect(openSandboxToken(KEY, altered, now)).toBeUndefined();
    expect(openSandboxToken(KEY, 'nonsense', now)).toBeUndefined();
    expect(openSandboxToken(KEY, `${signed}.extra`, now)).toBeUndefined();
  });

  it('complete a payment only for the tenant they name', async () => {
    const provider = createSandboxProvider({ tenantId: TENANT, secretsKey: KEY, publicUrl: 'https://rpm.test', now: () => now });
    const { redirectUrl } = await provider.createPayment({ orderId: 'ORDER-2', amountMinor: 50_000, currency: 'VND', description: 'x', returnUrl: 'https://shop.test', ipAddress: '127.0.0.1', locale: 'en', createdAt: now });
    const signed = redirectUrl.split('/').at(-1) ?? '';
    expect(provider.verifyCallback({ kind: 'RETURN', query: { token: signed, decision: 'pay' }, headers: {}, rawBody: '' })).toMatchObject({ orderId: 'ORDER-2', status: 'SUCCESS', amountMinor: 50_000 });
    expect(provider.verifyCallback({ kind: 'RETURN', query: { token: signed, decision: 'decline' }, headers: {}, rawBody: '' })).toMatchObject({ status: 'FAILED', result: 'notCompleted' });
    const other = createSandboxProvider({ tenantId: '01890000-0000-7000-8000-000000000002', secretsKey: KEY, publicUrl: 'https://rpm.test', now: () => now });
    expect(() => other.verifyCallback({ kind: 'RETURN', query: { token: signed, decision: 'pay' }, headers: {}, rawBody: '' })).toThrow(PaymentSignatureError);
  });
});
