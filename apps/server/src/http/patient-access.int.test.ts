import {
  canChangePatient,
  canReadPatient,
  canReadPatientData,
  canSeePatientEvent,
  PATIENT_RELATIONS,
  PROFILE_HEADER,
  type LiveServerMessage,
  type PatientRelation,
} from '@rpm/contracts';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, withSession } from '../../test/app.js';
import { inPool } from '../../test/concurrency.js';
import { createTestDatabase, ownerPool, type OwnerPool, type TestDatabase } from '../../test/database.js';
import { multipart } from '../../test/multipart.js';
import { publishEvent } from '../modules/realtime/publish.js';
import { SESSION_COOKIE } from './access.js';
import {
  ACCOUNT_READS,
  dataOf,
  INTAKE_DAY,
  isPermitted,
  isRefusal,
  LIST_MARKS,
  PNG,
  SELF_READS,
  setUpPatientAccess,
  type Caller,
  type Method,
  type PatientAccessWorld,
} from './patient-access-support.js';

/**
 * QUALITY "every patient-scoped route and /ws, every role × relation: 0 decisions differ from the
 * one access rule". Routes are read from the app itself: every route that takes the id of a
 * patient (or of a patient's case, ticket, contact, file, record or bound device), names a patient
 * in its body, or lists patients' data, is called by every role (placed where it works) for a
 * patient of each relation (own record, same center, other center, no center, other tenant, and for
 * the patient account a sub-user it holds, a patient it follows, one that hides every data kind from
 * it, and one whose contact with it was deleted). The expected answer is the permission catalogue's
 * and contracts' rule, nothing else: `canReadPatient`, and for a follower `canChangePatient` for
 * changes and `canReadPatientData` for the part of the patient's data a read concerns (a list of
 * data hidden from it answers without that data); `canSeePatientEvent` for /ws.
 *
 * The world (callers, patients, how to address each route) is patient-access-support.ts. The tests
 * below share it and run in order: the routes' changes come first, the reads of lists, of the app's
 * own views and of the live channel after them.
 */

/** Requests in flight at once: independent calls go concurrently, within the app's connections. */
const CONCURRENT_CALLS = 9;

let testDb: TestDatabase;
let owner: OwnerPool;
let app: FastifyInstance;
let world: PatientAccessWorld;
beforeAll(async () => {
  testDb = await createTestDatabase({ maxConnections: CONCURRENT_CALLS + 1 });
  owner = ownerPool(testDb.ownerUrl);
  app = await createTestApp(testDb.database);
  await app.listen({ host: '127.0.0.1', port: 0 });
  world = await setUpPatientAccess(testDb, owner, app);
}, 180_000);
afterAll(async () => {
  await app.close();
  await owner.close();
  await testDb.drop();
});

const fixtureOf = (relation: PatientRelation) => world.fixtures.get(relation);

it('places every route with a path parameter or a patient in its body: a patient route, or one that holds no patient data', () => {
  expect(world.unclassified.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  expect(world.patientRoutes.length).toBeGreaterThan(40);
});

it('decides every patient-scoped route for every role and relation exactly as the one access rule says', async () => {
  const { tenant, callers, patientRoutes, targetOf } = world;
  const mismatches: string[] = [];
  let tried = 0;
  for (const route of patientRoutes) {
    const check = async (caller: Caller, relation: PatientRelation): Promise<void> => {
      const fixture = fixtureOf(relation);
      if (fixture === undefined) return;
      const target = await targetOf(route, fixture);
      const form = target.multipart === true ? multipart([{ name: 'file', filename: 'scan.png', contentType: 'image/png', content: PNG }]) : undefined;
      // A patient account addresses another record than its own the way its app does: with the
      // profile header naming it (staff sessions ignore the header).
      const profile = caller.subject.kind === 'patient' ? { [PROFILE_HEADER]: fixture.patientId } : {};
      const response = await app.inject({
        method: route.method as Method,
        url: target.url,
        ...withSession(caller.token),
        ...(form !== undefined ? { payload: form.payload, headers: { ...form.headers, ...profile } } : { headers: profile, ...(target.payload !== undefined ? { payload: target.payload as InjectOptions['payload'] } : {}) }),
      });
      tried++;
      const code = String(response.headers['content-type'] ?? '').includes('json') ? response.json<{ code?: string }>().code : undefined;
      const reaches = isPermitted(caller, route.method, route.url, route.access) && canReadPatient(caller.subject, tenant.id, fixture.facts);
      const isChange = route.method !== 'GET';
      // A doctor sees and changes only its own appointments (the fixture's are another doctor's).
      // Its video room is for its doctor and patient only, whatever the caller's permissions.
      const isOthersAppointment =
        (caller.role === 'DOCTOR' && route.url.startsWith('/account/appointments/')) || route.url === '/account/appointments/:id/video';
      const expected =
        reaches &&
        !isOthersAppointment &&
        (isChange ? canChangePatient(caller.subject, tenant.id, fixture.facts) : canReadPatientData(caller.subject, tenant.id, fixture.facts, dataOf(route.url)));
      const refused = isRefusal(response.statusCode, code);
      const mark = route.method === 'GET' ? LIST_MARKS.find((candidate) => candidate.pattern.test(route.url))?.mark(fixture) : undefined;
      if (mark !== undefined && reaches && !refused && response.statusCode === 200) {
        // A list the caller reaches: its data is in the answer exactly when the rule lets it read that kind.
        if (response.body.includes(mark) !== expected) mismatches.push(`${caller.name} GET ${route.url} [${relation}]: expected the data ${expected ? 'shown' : 'left out'}, got ${response.body.slice(0, 160)}`);
        return;
      }
      // An answer the rule did not decide (a request the fixture made badly) is reported too.
      const isInconclusive = !refused && response.statusCode === 400 && code === 'common.invalidParameter';
      if (refused === expected || isInconclusive || response.statusCode >= 500) {
        mismatches.push(`${caller.name} ${route.method} ${route.url} [${relation}]: expected ${expected ? 'allowed' : 'refused'}, got ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    };
    // Routes one after the other. Reads change nothing: every caller and relation at once, a pool's
    // worth at a time. A change may leave its patient's objects changed for the next caller: each
    // relation's patient takes the callers one after the other (as they are listed), the patients
    // side by side (they share no object).
    if (route.method === 'GET') {
      const pairs = callers.flatMap((caller) => PATIENT_RELATIONS.map((relation) => [caller, relation] as const));
      await inPool(pairs, CONCURRENT_CALLS, ([caller, relation]) => check(caller, relation));
    } else {
      await inPool(PATIENT_RELATIONS, CONCURRENT_CALLS, async (relation) => {
        for (const caller of callers) await check(caller, relation);
      });
    }
  }
  console.log(`patient access, routes: ${String(tried)} combinations tried (${String(patientRoutes.length)} routes × ${String(callers.length)} callers × ${String(PATIENT_RELATIONS.length)} relations), ${String(mismatches.length)} differ from the rule`);
  expect(mismatches).toEqual([]);
}, 900_000);

it('lists no patient the rule hides from the caller, and every patient it shows in the patient list', async () => {
  const { tenant, callers, callAs } = world;
  const mismatches: string[] = [];
  let tried = 0;
  const lists = ['/account/patients', '/account/sos-cases', '/account/tickets', '/account/messages', '/account/appointments'];
  const calls = lists.flatMap((url) => {
    const route = app.apiRoutes.find((candidate) => candidate.method === 'GET' && candidate.url === url);
    if (route === undefined) throw new Error(`no list route ${url}`);
    return callers.filter((caller) => isPermitted(caller, 'GET', url, route.access)).map((caller) => ({ url, caller }));
  });
  await inPool(calls, CONCURRENT_CALLS, async ({ url, caller }) => {
    const response = await callAs(caller.token, 'GET', `${url}?page=0&size=100`);
    tried++;
    if (response.statusCode !== 200) {
      mismatches.push(`${caller.name} GET ${url}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      return;
    }
    for (const relation of PATIENT_RELATIONS) {
      const fixture = fixtureOf(relation);
      if (fixture === undefined) continue;
      const isListed = response.body.includes(fixture.patientId);
      const expected = canReadPatient(caller.subject, tenant.id, fixture.facts);
      if (isListed && !expected) mismatches.push(`${caller.name} GET ${url} lists the ${relation} patient`);
      if (url === '/account/patients' && !isListed && expected) mismatches.push(`${caller.name} GET ${url} misses the ${relation} patient`);
    }
  });
  console.log(`patient access, lists: ${String(tried)} lists tried (${String(lists.length)} lists × the callers that may call them), ${String(mismatches.length)} differ from the rule`);
  expect(mismatches).toEqual([]);
}, 300_000);

// The app's self reads (GET /health/me/…) work on the session's profile: its own record, or with
// the profile header a sub-user it holds or a patient it follows. The patient account calls each
// with the header naming each relation's patient: answered exactly when the rule lets it read the
// patient (else profile.notFound), and with the data of a kind exactly when the rule lets it read
// that kind. Reads of the account itself, where the header plays no part, are listed apart.
it("answers the app's own reads with the profile header exactly as the rule says", async () => {
  const { tenant, callers } = world;
  const mismatches: string[] = [];
  let tried = 0;
  const selfReads = app.apiRoutes.filter((route) => route.method === 'GET' && route.url.startsWith('/health/me/') && !route.url.includes(':'));
  expect(selfReads.filter((route) => !ACCOUNT_READS.test(route.url) && !SELF_READS.some((entry) => entry.pattern.test(route.url))).map((route) => route.url)).toEqual([]);
  const patientCaller = callers.find((caller) => caller.subject.kind === 'patient');
  if (patientCaller === undefined) throw new Error('no patient account among the callers');
  // The care-team routes may have removed the fixtures' doctors: each patient has its doctor again.
  for (const fixture of world.fixtures.values()) {
    await owner.query(`INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST') ON CONFLICT DO NOTHING`, [fixture.facts.tenantId, fixture.patientId, fixture.doctorId]);
  }
  const today = new Date().toISOString().slice(0, 10);
  const calls = selfReads.flatMap((route) => {
    const entry = SELF_READS.find((candidate) => candidate.pattern.test(route.url));
    return entry === undefined ? [] : PATIENT_RELATIONS.map((relation) => ({ route, entry, relation }));
  });
  await inPool(calls, CONCURRENT_CALLS, async ({ route, entry, relation }) => {
    const fixture = fixtureOf(relation);
    if (fixture === undefined) return;
    const url = route.url === '/health/me/data' ? `${route.url}?measure=HEART_RATE&view=day&date=${today}` : route.url === '/health/me/intakes' || route.url === '/health/me/reminders' ? `${route.url}?date=${INTAKE_DAY}` : route.url === '/health/me/prescriptions' || route.url === '/health/me/appointments' ? `${route.url}?size=200` : route.url;
    const response = await app.inject({ method: 'GET', url, ...withSession(patientCaller.token), headers: { [PROFILE_HEADER]: fixture.patientId } });
    tried++;
    const expected = canReadPatient(patientCaller.subject, tenant.id, fixture.facts);
    if ((response.statusCode === 200) !== expected || (!expected && response.statusCode !== 404)) {
      mismatches.push(`${patientCaller.name} GET ${route.url} as [${relation}]: expected ${expected ? 'answered' : 'profile.notFound'}, got ${response.statusCode} ${response.body.slice(0, 160)}`);
      return;
    }
    const mark = entry.mark?.(fixture);
    if (!expected || mark === undefined) return;
    const shows = canReadPatientData(patientCaller.subject, tenant.id, fixture.facts, entry.data ?? 'record');
    if (response.body.includes(mark) !== shows) mismatches.push(`${patientCaller.name} GET ${route.url} as [${relation}]: expected the data ${shows ? 'shown' : 'left out'}, got ${response.body.slice(0, 160)}`);
  });
  console.log(`patient access, self reads: ${String(tried)} combinations tried (${String(calls.length / PATIENT_RELATIONS.length)} of ${String(selfReads.length)} self reads × ${String(PATIENT_RELATIONS.length)} relations with the profile header; the account's own reads take none), ${String(mismatches.length)} differ from the rule`);
  expect(mismatches).toEqual([]);
}, 300_000);

// The live channel: an SOS and a ticket event about each relation's patient; each caller's socket
// receives exactly those the rule lets it see (a follower: the SOS, not the ticket). Center-less
// events with no patient: whole tenant only.
it('delivers on /ws exactly the events the rule lets each caller see', async () => {
  const { tenant, callers, fixtures } = world;
  const { database } = testDb;
  const mismatches: string[] = [];
  let tried = 0;
  const baseUrl = `ws://127.0.0.1:${String((app.server.address() as { port: number }).port)}/ws`;
  const sockets = await Promise.all(
    callers.map(async (caller) => {
      const socket = new WebSocket(baseUrl, { headers: { cookie: `${SESSION_COOKIE}=${caller.token}`, origin: new URL(baseUrl.replace('ws:', 'http:')).origin } });
      const received: LiveServerMessage[] = [];
      socket.on('message', (data: Buffer) => {
        received.push(JSON.parse(data.toString('utf8')) as LiveServerMessage);
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => {
          resolve();
        });
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ type: 'resume', after: null }));
      while (!received.some((message) => message.type === 'resumed')) await new Promise((resolve) => setTimeout(resolve, 20));
      return { caller, socket, received };
    }),
  );
  const marker = randomBytes(4).toString('hex');
  const EVENT_TYPES = ['sos.opened', 'ticket.created'] as const;
  for (const relation of PATIENT_RELATIONS) {
    const fixture = fixtureOf(relation);
    if (fixture === undefined) continue;
    for (const type of EVENT_TYPES) {
      await database.withTenant(fixture.facts.tenantId, (tx) =>
        publishEvent(tx, fixture.facts.tenantId, { type, patientId: fixture.patientId, healthCenterId: fixture.centerId, payload: { marker, relation: `${relation} ${type}` } }),
      );
    }
  }
  await database.withTenant(tenant.id, (tx) => publishEvent(tx, tenant.id, { type: 'system.notice', patientId: null, healthCenterId: null, payload: { marker, relation: 'none' } }));
  // The hub reads at each notification and at least every 2 s: wait for the whole-tenant callers' copy.
  const rootSocket = sockets.find((entry) => entry.caller.role === 'ROOT');
  const deadline = Date.now() + 10_000;
  const relationsOf = (received: LiveServerMessage[]) =>
    received.flatMap((message) => ('payload' in message && (message.payload as { marker?: string }).marker === marker ? [(message.payload as { relation: string }).relation] : []));
  const rootSees = [...fixtures.values()].filter((fixture) => fixture.facts.tenantId === tenant.id).length * EVENT_TYPES.length + 1;
  while (Date.now() < deadline && relationsOf(rootSocket?.received ?? []).length < rootSees) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const { caller, socket, received } of sockets) {
    const got = new Set(relationsOf(received));
    for (const relation of PATIENT_RELATIONS) {
      const fixture = fixtureOf(relation);
      if (fixture === undefined) continue;
      for (const type of EVENT_TYPES) {
        tried++;
        const expected = canSeePatientEvent(caller.subject, tenant.id, { tenantId: fixture.facts.tenantId, type, patientId: fixture.patientId, healthCenterId: fixture.centerId, patient: fixture.facts });
        if (got.has(`${relation} ${type}`) !== expected) mismatches.push(`${caller.name} /ws [${relation}] ${type}: expected ${expected ? 'delivered' : 'withheld'}`);
      }
    }
    tried++;
    const seesNoPatientEvent = caller.subject.kind === 'staff' && caller.subject.centers === 'all';
    if (got.has('none') !== seesNoPatientEvent) mismatches.push(`${caller.name} /ws [no patient, no center]: expected ${seesNoPatientEvent ? 'delivered' : 'withheld'}`);
    socket.close();
  }
  console.log(`patient access, /ws: ${String(tried)} combinations tried (${String(callers.length)} callers × (${String(PATIENT_RELATIONS.length)} relations × ${String(EVENT_TYPES.length)} event types + 1 event of no patient)), ${String(mismatches.length)} differ from the rule`);
  expect(mismatches).toEqual([]);
}, 120_000);
