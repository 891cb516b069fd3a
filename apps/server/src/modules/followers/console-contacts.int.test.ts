import type { Contact } from '@rpm/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createTenantUser } from '../../../test/factories.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, patientOutbox, type AlertOrganisation } from '../alerts/test-support.js';
import { lastInvitationCodeTo } from './test-support.js';

/**
 * Followers from the console (/account/patients/:patientId/contacts): a contact staff add is an
 * invitation like the app's (SMS, 5-minute resend), deletion keeps the row as history, and the
 * escalation calls the non-deleted contacts favourite first, then emergency, then oldest.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let adminBToken: string;
let operatorToken: string;
const clock = new ManualClock(new Date('2025-04-01T08:00:00Z'));

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
const dataOf = <T,>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
const codeOf = (response: LightMyRequestResponse) => [response.statusCode, response.json<{ code: string }>().code];
const contactsUrl = () => `/account/patients/${org.patientA.id}/contacts`;

async function listed(): Promise<Contact[]> {
  const response = await call(app, org.adminToken, 'GET', contactsUrl());
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<Contact[]>(response);
}
const storedContact = (id: string) =>
  asOwner<{ invitation_status: string; last_sent_at: Date; deleted_at: Date | null; invited_by: string | null }>(
    testDb.ownerUrl,
    'SELECT invitation_status, last_sent_at, deleted_at, invited_by FROM patient_contacts WHERE id = $1',
    [id],
  ).then((rows) => rows[0]);

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  adminBToken = await logInAs(app, org.tenant.code, org.adminB);
  operatorToken = await logInAs(app, org.tenant.code, org.operator);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('followers in the console', () => {
  let coachId = '';

  it('adds a coach: an invitation sent by SMS, by the staff member', async () => {
    const added = await call(app, org.adminToken, 'POST', contactsUrl(), {
      contactType: 'COACH',
      name: 'Coach',
      phone: '0904000001',
      relationship: 'FRIEND',
      favourite: true,
    });
    expect(added.statusCode, added.body).toBe(200);
    coachId = dataOf<Contact>(added).id;
    expect(dataOf<Contact>(added)).toMatchObject({ contactType: 'COACH', invitationStatus: 'SENT', follower: null, hiddenKinds: [] });
    expect((await storedContact(coachId))?.invited_by).toBe(org.admin.id);
    const sms = (await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION')).filter((message) => message.recipient === '0904000001');
    expect(sms).toHaveLength(1);
  });

  it('resends after 5 minutes only; another center’s admin gets 404 and a viewer 403, the row untouched', async () => {
    const sentAt = (await storedContact(coachId))?.last_sent_at;
    expect(codeOf(await call(app, org.adminToken, 'POST', `${contactsUrl()}/${coachId}/resend`))).toEqual([409, 'contact.resendTooSoon']);
    clock.advance(5 * MINUTE);
    expect(codeOf(await call(app, adminBToken, 'POST', `${contactsUrl()}/${coachId}/resend`))).toEqual([404, 'patient.notFound']);
    expect(codeOf(await call(app, operatorToken, 'POST', `${contactsUrl()}/${coachId}/resend`))).toEqual([403, 'auth.permissionDenied']);
    expect((await storedContact(coachId))?.last_sent_at).toEqual(sentAt);
    const resent = await call(app, org.adminToken, 'POST', `${contactsUrl()}/${coachId}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(dataOf<Contact>(resent)).toMatchObject({ invitationStatus: 'RESENT', lastSentAt: clock.now().toISOString() });
    const audits = await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE request_id = $1', [
      String(resent.headers['x-request-id']),
    ]);
    expect(audits.map((row) => row.action)).toEqual(['PATIENT_CONTACT_INVITATION_RESENT']);
    expect((await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION')).filter((message) => message.recipient === '0904000001')).toHaveLength(2);
  });

  it('a new phone for a pending invitation needs a resend to get its own code: the old phone’s code confirms nothing', async () => {
    const coachAccount = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', firstName: 'Coach', lastName: 'New', phone: '0904000002' });
    const coachToken = await logInAs(app, org.tenant.code, coachAccount);
    const oldCode = await lastInvitationCodeTo(testDb.ownerUrl, '0904000001');
    const body = { contactType: 'COACH', name: 'Coach', phone: '0904000002', relationship: 'FRIEND', favourite: true };
    expect((await call(app, org.adminToken, 'PUT', `${contactsUrl()}/${coachId}`, body)).statusCode).toBe(200);
    const confirmUrl = `/health/me/invitations/${coachId}/confirm`;
    expect(codeOf(await call(app, coachToken, 'POST', confirmUrl, { code: oldCode }))).toEqual([400, 'invitation.codeExpired']);
    clock.advance(5 * MINUTE);
    expect((await call(app, org.adminToken, 'POST', `${contactsUrl()}/${coachId}/resend`)).statusCode).toBe(200);
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0904000002');
    const confirmed = await call(app, coachToken, 'POST', confirmUrl, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Back to a pending invitation for the tests that follow.
    await asOwner(
      testDb.ownerUrl,
      `UPDATE patient_contacts SET invitation_status = 'RESENT', follower_user_id = NULL, confirmed_at = NULL, phone = '0904000001' WHERE id = $1`,
      [coachId],
    );
  });

  it('shows the confirming account’s name; the phone of a confirmed follower stays', async () => {
    const lanAccount = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', firstName: 'Lan', lastName: 'Pham', phone: '0902000003' });
    const lanToken = await logInAs(app, org.tenant.code, lanAccount);
    const lan = (await listed()).find((contact) => contact.name === 'Lan');
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000003');
    expect((await call(app, lanToken, 'POST', `/health/me/invitations/${lan?.id ?? ''}/confirm`, { code })).statusCode).toBe(200);
    expect((await listed()).find((contact) => contact.name === 'Lan')).toMatchObject({
      invitationStatus: 'CONFIRMED',
      follower: { userId: lanAccount.id, name: 'Lan Pham' },
    });
    const body = { contactType: 'CARING', name: 'Lan P', phone: '0902000099', relationship: 'FRIEND', favourite: false };
    expect(codeOf(await call(app, org.adminToken, 'PUT', `${contactsUrl()}/${lan?.id ?? ''}`, body))).toEqual([409, 'contact.invalidTransition']);
    const renamed = await call(app, org.adminToken, 'PUT', `${contactsUrl()}/${lan?.id ?? ''}`, { ...body, phone: '0902000003' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(dataOf<Contact>(renamed)).toMatchObject({ name: 'Lan P', invitationStatus: 'CONFIRMED', follower: { name: 'Lan Pham' } });
    expect(codeOf(await call(app, org.adminToken, 'POST', `${contactsUrl()}/${lan?.id ?? ''}/resend`))).toEqual([409, 'contact.invalidTransition']);
  });

  it('calls the non-deleted contacts, confirmed or not, favourite first, then emergency, then oldest', async () => {
    const nam = (await listed()).find((contact) => contact.name === 'Nam');
    expect((await call(app, org.adminToken, 'DELETE', `${contactsUrl()}/${nam?.id ?? ''}`)).statusCode).toBe(200);
    const patientToken = await logInAs(app, org.tenant.code, org.patientUser);
    const calling = await call(app, patientToken, 'POST', '/health/alerts/call-followers');
    expect(calling.statusCode, calling.body).toBe(200);
    const calls = await asOwner<{ to_name: string }>(testDb.ownerUrl, 'SELECT to_name FROM calls WHERE patient_id = $1 ORDER BY id', [org.patientA.id]);
    expect(calls.map((row) => row.to_name)).toEqual(['Mai', 'Coach', 'Lan P']);
  });

  it('deletes by marking DELETED (kept as history, gone from the list); a second delete or a resend is refused', async () => {
    const nam = await asOwner<{ id: string }>(testDb.ownerUrl, `SELECT id FROM patient_contacts WHERE name = 'Nam'`, []);
    const namId = nam[0]?.id ?? '';
    const stored = await storedContact(namId);
    expect(stored?.invitation_status).toBe('DELETED');
    expect(stored?.deleted_at).toEqual(clock.now());
    expect((await listed()).map((contact) => contact.name)).toEqual(['Mai', 'Coach', 'Lan P']);
    expect(codeOf(await call(app, org.adminToken, 'DELETE', `${contactsUrl()}/${namId}`))).toEqual([409, 'contact.invalidTransition']);
    expect(codeOf(await call(app, org.adminToken, 'POST', `${contactsUrl()}/${namId}/resend`))).toEqual([409, 'contact.invalidTransition']);
    expect(codeOf(await call(app, org.adminToken, 'POST', `${contactsUrl()}/${crypto.randomUUID()}/resend`))).toEqual([404, 'contact.notFound']);
  });

  it('counts only non-deleted contacts against the limit of 5 per type', async () => {
    // Mai is the one emergency contact left: four more fit, a sixth does not.
    for (const phone of ['0905100001', '0905100002', '0905100003', '0905100004']) {
      const added = await call(app, org.adminToken, 'POST', contactsUrl(), { contactType: 'EMERGENCY', name: 'Extra', phone, relationship: 'OTHER' });
      expect(added.statusCode, added.body).toBe(200);
    }
    const sixth = await call(app, org.adminToken, 'POST', contactsUrl(), { contactType: 'EMERGENCY', name: 'Sixth', phone: '0905100009', relationship: 'OTHER' });
    expect(codeOf(sixth)).toEqual([409, 'careTeam.limitReached']);
    // The deleted Nam's phone may be invited again.
    const again = await call(app, org.adminToken, 'POST', contactsUrl(), { contactType: 'CARING', name: 'Nam', phone: '0902000002', relationship: 'SON' });
    expect(again.statusCode, again.body).toBe(200);
  });
});
