import { randomInt } from 'node:crypto';
import { checkPassword, PATIENT_APP_PASSWORD_RULE } from '@rpm/contracts';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenant } from '../../../test/factories.js';
import { newCallerIp, poster } from './test-support.js';

/**
 * Spec §5: the patient app's password rule (at least 8, a lower-case letter, a capital, a digit,
 * one of - _ , . ! @ # * % and nothing else) is the one the server holds the app's registrations
 * to, whatever the tenant's console rule says; the console keeps the tenant's rule.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let tenantCode: string;
beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  tenantCode = (await createTenant(testDb.database)).code;
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

async function register(password: string, client: 'patient' | undefined) {
  const post = poster(app, newCallerIp(), 'en');
  return post('/account/register', {
    tenant: tenantCode,
    firstName: 'Lan',
    lastName: 'Tran',
    email: `person-${String(randomInt(10 ** 9))}@test.example`,
    birthday: '1990-05-17',
    password,
    purpose: 'PERSONAL_MONITORING',
    acceptTerms: true,
    acceptPrivacy: true,
    role: 'PATIENT',
    ...(client === undefined ? {} : { app: client }),
  });
}

const APP_SPECIALS = Array.from('-_,.!@#*%');
const PASSWORD_CHARACTERS = [...Array.from('abcxyzABCXYZ0189'), ...APP_SPECIALS, ...Array.from('$^&?~ ')];

describe('the patient app’s password rule on the server', () => {
  it('accepts exactly the passwords the app accepts', async () => {
    // Half the runs start from a password the app accepts, so both answers are exercised.
    const password = fc.oneof(
      fc.string({ unit: fc.constantFrom(...PASSWORD_CHARACTERS), minLength: 6, maxLength: 14 }),
      fc
        .tuple(fc.constantFrom(...APP_SPECIALS), fc.string({ unit: fc.constantFrom(...PASSWORD_CHARACTERS), maxLength: 4 }))
        .map(([special, tail]) => `Qm7v${special}kzr${tail}`),
    );
    await fc.assert(
      fc.asyncProperty(password, async (candidate) => {
        const isAppAccepted = checkPassword(candidate, PATIENT_APP_PASSWORD_RULE).length === 0;
        const response = await register(candidate, 'patient');
        expect(response.statusCode, `${JSON.stringify(candidate)}: ${response.body}`).toBe(isAppAccepted ? 200 : 400);
        if (!isAppAccepted) expect(response.json<{ code: string }>().code).toMatch(/^password\./);
      }),
      { numRuns: 40 },
    );
  });

  it('takes the app’s specials the console’s default rule refuses, and refuses the console’s $ ^ &', async () => {
    expect((await register('Lotus-garden.7', 'patient')).statusCode).toBe(200);
    const consoleSpecial = await register('Lotus$garden7', 'patient');
    expect(consoleSpecial.json<{ code: string }>().code).toBe('password.invalidCharacters');
    // The console (no app named) keeps the tenant's rule: "-" and "." are not among its specials.
    const fromConsole = await register('Lotus-garden.7', undefined);
    expect(fromConsole.json<{ code: string }>().code).toBe('password.invalidCharacters');
    expect((await register('Lotus$garden7', undefined)).statusCode).toBe(200);
  });
});
