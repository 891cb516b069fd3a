import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { PROFILE_HEADER, type DoctorSchedule, type ServicePackage, type SubUser } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { multipart } from '../../../test/multipart.js';
import { MINUTE, ManualClock } from '../../lib/clock.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, type CareOrganisation } from '../doctors/test-support.js';

/**
 * Paid features behind the patient's package (spec §6 "Paid features need the Basic package"):
 * booking an online (video) appointment needs VIDEO_CONSULTATION and photo entry needs PHOTO_ENTRY,
 * for the profile acting (its own record, or a sub-user, which also has what its holder's package
 * gives relatives). A tenant without a ZERO package limits nothing; nothing clinical is gated.
 */

/** A photo of a monitor's display (the OCR tests' own). */
const DISPLAY = readFileSync(new URL('../vitals/ocr-fixtures/blood-pressure-display.png', import.meta.url));

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let admin: string;
let patient: string;
let subUser: SubUser;
// 09:00 in Ho Chi Minh City, Tuesday the first of December.
const clock = new ManualClock(new Date('2026-12-01T02:00:00Z'));
/** The doctor's free half hours on Wednesday the 2nd, used one per booking. */
const slots = Array.from({ length: 8 }, (_, index) => new Date(Date.parse('2026-12-02T01:00:00Z') + index * 30 * MINUTE).toISOString());
let nextSlot = 0;

const ZERO = { code: 'ZERO', kind: 'PACKAGE', name: 'Zero', plan: 'ZERO', level: 'STANDARD', priceMinor: 0, currency: 'VND', durationMonths: -1, followerLimit: 1, subUserLimit: 0 };
const BASIC = {
  code: 'BASIC6',
  kind: 'PACKAGE',
  name: 'Basic 6 months',
  plan: '12MCARE',
  level: 'STANDARD',
  priceMinor: 84_000,
  currency: 'VND',
  durationMonths: 6,
  userFeatures: ['VIDEO_CONSULTATION', 'PHOTO_ENTRY'],
  // Its holder's Basic gives a sub-user video consultations, not photo entry.
  relativeFeatures: ['VIDEO_CONSULTATION'],
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await careOrganisation(testDb);
  admin = await logInAs(app, org.tenant.code, org.admin);
  patient = await logInAs(app, org.tenant.code, org.patientUser);
  const doctor = await logInAs(app, org.tenant.code, org.doctorA);
  const schedule = dataOf<DoctorSchedule>(
    await call(app, doctor, 'POST', '/account/doctor/schedules', {
      kind: 'WEEKLY',
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      weekdays: [1, 2, 3, 4, 5],
      startTime: '08:00',
      endTime: '12:00',
      slotMinutes: 30,
    }),
  );
  const approved = await call(app, admin, 'POST', '/account/schedules/decisions', { ids: [schedule.id], decision: 'APPROVE' });
  expect(approved.statusCode, approved.body).toBe(200);
  // A sub-user held by the patient, added while the tenant sells no packages (nothing limits it).
  const added = await call(app, patient, 'POST', '/health/me/sub-users', { firstName: 'Na', lastName: 'Pham', birthday: '2016-04-12', relation: 'CHILD', smoking: false });
  expect(added.statusCode, added.body).toBe(200);
  subUser = dataOf<SubUser>(added);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

/** The patient's call, as its own record or as `profile` (a sub-user it holds). */
function asPatient(method: 'GET' | 'POST', url: string, payload?: unknown, profile?: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as string }),
    ...withSession(patient),
    ...(profile === undefined ? {} : { headers: { [PROFILE_HEADER]: profile } }),
  });
}

/** Books the next free slot of the doctor at the clinic or online. */
function book(place: 'CLINIC' | 'ONLINE', profile?: string): Promise<LightMyRequestResponse> {
  const startAt = slots[nextSlot];
  if (startAt === undefined) throw new Error('no slot left');
  return asPatient('POST', '/health/me/appointments', { doctorId: org.doctorA.id, startAt, reason: 'Check-up', place }, profile);
}

/** Books and, when booked, uses up the slot (a refusal leaves it free for the next booking). */
async function booked(place: 'CLINIC' | 'ONLINE', profile?: string): Promise<LightMyRequestResponse> {
  const response = await book(place, profile);
  if (response.statusCode === 200) nextSlot++;
  return response;
}

function readPhoto(profile?: string): Promise<LightMyRequestResponse> {
  const body = multipart([{ name: 'image', filename: 'display.png', content: DISPLAY, contentType: 'image/png' }]);
  return app.inject({
    method: 'POST',
    url: '/collector/ocr',
    payload: body.payload,
    headers: { ...body.headers, ...(profile === undefined ? {} : { [PROFILE_HEADER]: profile }) },
    ...withSession(patient),
  });
}

const refused = (response: LightMyRequestResponse) => [response.statusCode, codeOf(response)];

describe('paid features gated by the package', () => {
  it('gates nothing while the tenant sells no packages (no ZERO package)', async () => {
    expect((await booked('ONLINE')).statusCode).toBe(200);
    expect((await booked('ONLINE', subUser.id)).statusCode).toBe(200);
    const photo = await readPhoto();
    expect(photo.statusCode, photo.body).toBe(200);
    expect(photo.json<{ data: { candidates: unknown[] } }>().data.candidates.length).toBeGreaterThan(0);
  });

  it('refuses video booking and photo entry on Zero with package.upgradeRequired, and nothing clinical', async () => {
    expect((await call(app, admin, 'POST', '/account/packages', ZERO)).statusCode).toBe(200);
    const online = await booked('ONLINE');
    expect(refused(online)).toEqual([403, 'package.upgradeRequired']);
    // The refusal is said in the caller's language.
    expect(online.json<{ message: string }>().message).toBe('This needs the Basic package: upgrade required');
    const vi = await app.inject({
      method: 'POST',
      url: '/health/me/appointments',
      payload: { doctorId: org.doctorA.id, startAt: slots[nextSlot], reason: 'Khám', place: 'ONLINE' },
      headers: { 'accept-language': 'vi' },
      ...withSession(patient),
    });
    expect(vi.json<{ message: string }>().message).toBe('Cần gói Basic để dùng tính năng này: vui lòng nâng cấp gói');
    expect(refused(await booked('ONLINE', subUser.id))).toEqual([403, 'package.upgradeRequired']);
    expect(refused(await readPhoto())).toEqual([403, 'package.upgradeRequired']);

    // Never gated: a visit at the clinic, manual entry, readings from the watch, emergency
    // contacts and reading the profile's medical records.
    expect((await booked('CLINIC')).statusCode).toBe(200);
    const manual = await asPatient('POST', '/health/manual', { measure: 'HEART_RATE', value: 72, measuredAt: new Date(clock.now().getTime() - MINUTE).toISOString() });
    expect(manual.statusCode, manual.body).toBe(200);
    const batch = await asPatient('POST', '/collector/readings', {
      batchId: randomUUID(),
      readings: [{ measure: 'HEART_RATE', value: 74, measuredAt: new Date(clock.now().getTime() - 2 * MINUTE).toISOString(), source: 'WIRELESS_DEVICE' }],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const emergency = await asPatient('POST', '/health/me/followers', { contactType: 'EMERGENCY', name: 'Binh', phone: '0902000010', relationship: 'SON', favourite: false });
    expect(emergency.statusCode, emergency.body).toBe(200);
    expect((await asPatient('GET', '/health/me/records')).statusCode).toBe(200);
  });

  it('allows both once the patient is on a package with them; a sub-user has the relative features', async () => {
    const basic = dataOf<ServicePackage>(await call(app, admin, 'POST', '/account/packages', BASIC));
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO devices (tenant_id, id, model, serial_number, mac_address, patient_id) VALUES ($1, $2, 'V19', 'SN-ENT-1', 'AA:BB:CC:00:11:33', $3)`,
      [org.tenant.id, randomUUID(), org.patientA.id],
    );
    const subscribed = await call(app, admin, 'POST', `/account/patients/${org.patientA.id}/subscription`, { packageId: basic.id });
    expect(subscribed.statusCode, subscribed.body).toBe(200);

    const online = await booked('ONLINE');
    expect(online.statusCode, online.body).toBe(200);
    const photo = await readPhoto();
    expect(photo.statusCode, photo.body).toBe(200);
    // The sub-user (on Zero itself) books video through its holder's relative features, but the
    // holder's package gives relatives no photo entry.
    const subOnline = await booked('ONLINE', subUser.id);
    expect(subOnline.statusCode, subOnline.body).toBe(200);
    expect(refused(await readPhoto(subUser.id))).toEqual([403, 'package.upgradeRequired']);
    const view = await asPatient('GET', '/health/me/subscription', undefined, subUser.id);
    expect(view.json<{ data: { entitlements: { features: string[] } } }>().data.entitlements.features).toEqual(['VIDEO_CONSULTATION']);

    // Cancelled: back on Zero, refused again.
    expect((await asPatient('POST', '/health/me/subscription/cancel')).statusCode).toBe(200);
    expect(refused(await booked('ONLINE'))).toEqual([403, 'package.upgradeRequired']);
    expect(refused(await booked('ONLINE', subUser.id))).toEqual([403, 'package.upgradeRequired']);
  });
});
