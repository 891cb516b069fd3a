import type { Contact, FollowedPatient, ReceivedInvitation } from '@rpm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, withSession } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { ManualClock, MINUTE } from '../../lib/clock.js';
import { alertOrganisation, call, logInAs, patientOutbox, type AlertOrganisation } from '../alerts/test-support.js';
import { codeInInvitationText, lastInvitationCodeTo, otherCode } from './test-support.js';

/**
 * Follower invitations from the patient app (spec §4 relative invitation, §5 contacts, §9 limits):
 * patient A (account phone 0901000001) starts with three contacts staff invited (Mai and Nam
 * emergency, Mai the favourite; Lan caring). Mai, Nam and Lan have app accounts with those phones.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: AlertOrganisation;
let patientToken: string;
const clock = new ManualClock(new Date('2025-03-01T08:00:00Z'));
const accounts: Record<'mai' | 'nam' | 'lan' | 'minh', { id: string; token: string }> = {
  mai: { id: '', token: '' },
  nam: { id: '', token: '' },
  lan: { id: '', token: '' },
  minh: { id: '', token: '' },
};

// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the shape it expects
const dataOf = <T,>(response: LightMyRequestResponse): T => response.json<{ data: T }>().data;
const codeOf = (response: LightMyRequestResponse) => [response.statusCode, response.json<{ code: string }>().code];

function asProfile(token: string, method: 'GET' | 'POST', url: string, patientId: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { 'x-patient-profile': patientId },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    ...withSession(token),
  });
}

async function myFollowers(token = patientToken): Promise<Contact[]> {
  const response = await call(app, token, 'GET', '/health/me/followers');
  expect(response.statusCode, response.body).toBe(200);
  return dataOf<Contact[]>(response);
}
const contactNamed = async (name: string) => {
  const contact = (await myFollowers()).find((row) => row.name === name);
  if (contact === undefined) throw new Error(`no contact ${name}`);
  return contact;
};
const contactRows = (patientId: string) =>
  asOwner<{ name: string; phone: string; invitation_status: string; follower_user_id: string | null }>(
    testDb.ownerUrl,
    'SELECT name, phone, invitation_status, follower_user_id FROM patient_contacts WHERE patient_id = $1 ORDER BY created_at, id',
    [patientId],
  );
const eventsOfType = (type: string) =>
  asOwner<{ patient_id: string; payload: { contactId: string } }>(testDb.ownerUrl, 'SELECT patient_id, payload FROM events WHERE type = $1 ORDER BY id', [type]);

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database, {}, clock);
  org = await alertOrganisation(testDb, app);
  patientToken = await logInAs(app, org.tenant.code, org.patientUser);
  const people = [
    ['mai', 'Mai', '0902000001'],
    ['nam', 'Nam', '0902000002'],
    ['lan', 'Lan', '0902000003'],
    ['minh', 'Minh', '0903000001'],
  ] as const;
  for (const [key, firstName, phone] of people) {
    const user = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', firstName, lastName: 'Follower', phone });
    accounts[key] = { id: user.id, token: await logInAs(app, org.tenant.code, user) };
  }
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('the patient’s followers in the app', () => {
  it('lists the contacts staff invited, favourite first, then emergency, each sent its invitation SMS', async () => {
    const followers = await myFollowers();
    expect(followers.map((row) => [row.name, row.contactType, row.invitationStatus, row.follower])).toEqual([
      ['Mai', 'EMERGENCY', 'SENT', null],
      ['Nam', 'EMERGENCY', 'SENT', null],
      ['Lan', 'CARING', 'SENT', null],
    ]);
    expect(followers[0]?.resendAvailableAt).toBe(new Date(clock.now().getTime() + 5 * MINUTE).toISOString());
    const sms = await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION');
    expect(sms.map((message) => [message.recipient, message.channel])).toEqual([
      ['0902000001', 'SMS'],
      ['0902000002', 'SMS'],
      ['0902000003', 'SMS'],
    ]);
    expect(sms[0]?.body).toContain('Anh Nguyen invites you to follow their health as their emergency contact');
    // Each carries its own one-time code.
    expect(new Set(sms.map((message) => codeInInvitationText(message.body))).size).toBe(3);
  });

  it('invites a coach by phone: SENT, with the SMS in the patient’s language, audited', async () => {
    await asOwner(testDb.ownerUrl, `UPDATE users SET language = 'vi' WHERE id = $1`, [org.patientUser.id]);
    const response = await call(app, patientToken, 'POST', '/health/me/followers', {
      contactType: 'COACH',
      name: 'Thay Minh',
      phone: '0903000001',
      relationship: 'FRIEND',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(dataOf<Contact>(response)).toMatchObject({ contactType: 'COACH', invitationStatus: 'SENT', favourite: false, hiddenKinds: [] });
    const sms = (await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION')).filter(
      (message) => message.recipient === '0903000001',
    );
    expect(sms.map((message) => message.body)).toEqual([expect.stringContaining('Anh Nguyen mời bạn theo dõi sức khỏe') as string]);
    expect(sms[0]?.body).toContain('huấn luyện viên');
    expect(codeInInvitationText(sms[0]?.body ?? '')).toMatch(/^\d{6}$/);
    const audits = await asOwner<{ action: string }>(testDb.ownerUrl, 'SELECT action FROM audit_log WHERE request_id = $1', [
      String(response.headers['x-request-id']),
    ]);
    expect(audits.map((row) => row.action)).toEqual(['PATIENT_CONTACT_ADDED']);
    await asOwner(testDb.ownerUrl, `UPDATE users SET language = 'en' WHERE id = $1`, [org.patientUser.id]);
  });

  it('refuses the patient’s own phone, a phone already invited (in any form) and bad input, writing nothing', async () => {
    const before = await contactRows(org.patientA.id);
    const body = { contactType: 'CARING', name: 'Someone', relationship: 'OTHER' };
    expect(codeOf(await call(app, patientToken, 'POST', '/health/me/followers', { ...body, phone: '0901000001' }))).toEqual([400, 'request.toSelf']);
    expect(codeOf(await call(app, patientToken, 'POST', '/health/me/followers', { ...body, phone: '0902000001' }))).toEqual([409, 'contact.exists']);
    expect(codeOf(await call(app, patientToken, 'POST', '/health/me/followers', { ...body, phone: '+0902000002' }))).toEqual([409, 'contact.exists']);
    expect((await call(app, patientToken, 'POST', '/health/me/followers', { ...body, phone: 'abc' })).statusCode).toBe(400);
    expect((await call(app, patientToken, 'POST', '/health/me/followers', { ...body, name: 'R2D2', phone: '0904000009' })).statusCode).toBe(400);
    expect(await contactRows(org.patientA.id)).toEqual(before);
  });

  it('holds 5 contacts of a type (non-deleted ones count): the sixth is careTeam.limitReached, a deletion frees a place', async () => {
    for (const phone of ['0905000001', '0905000002', '0905000003']) {
      const added = await call(app, patientToken, 'POST', '/health/me/followers', {
        contactType: 'EMERGENCY',
        name: 'Extra',
        phone,
        relationship: 'OTHER',
      });
      expect(added.statusCode, added.body).toBe(200);
    }
    const sixth = { contactType: 'EMERGENCY', name: 'Sixth', phone: '0905000009', relationship: 'OTHER' };
    expect(codeOf(await call(app, patientToken, 'POST', '/health/me/followers', sixth))).toEqual([409, 'careTeam.limitReached']);
    // Changing a caring contact into a sixth emergency one is refused the same way.
    const lan = await contactNamed('Lan');
    const retype = await call(app, patientToken, 'PUT', `/health/me/followers/${lan.id}`, {
      contactType: 'EMERGENCY',
      name: 'Lan',
      relationship: 'FRIEND',
      favourite: false,
    });
    expect(codeOf(retype)).toEqual([409, 'careTeam.limitReached']);
    const extra = (await myFollowers()).find((row) => row.phone === '0905000003');
    expect((await call(app, patientToken, 'DELETE', `/health/me/followers/${extra?.id ?? ''}`)).statusCode).toBe(200);
    expect((await call(app, patientToken, 'POST', '/health/me/followers', sixth)).statusCode).toBe(200);
    // The deleted one stays as history; its phone may be invited again later.
    expect((await contactRows(org.patientA.id)).filter((row) => row.phone === '0905000003').map((row) => row.invitation_status)).toEqual(['DELETED']);
  });

  it('refuses a resend at 4:59 after the last send and allows it at 5:00 (→ RESENT, another SMS)', async () => {
    const nam = await contactNamed('Nam');
    clock.advance(4 * MINUTE + 59_000);
    const early = await call(app, patientToken, 'POST', `/health/me/followers/${nam.id}/resend`);
    expect(codeOf(early)).toEqual([409, 'contact.resendTooSoon']);
    expect(early.headers['retry-after']).toBe('1');
    clock.advance(1000);
    const resent = await call(app, patientToken, 'POST', `/health/me/followers/${nam.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(dataOf<Contact>(resent)).toMatchObject({
      invitationStatus: 'RESENT',
      lastSentAt: clock.now().toISOString(),
      resendAvailableAt: new Date(clock.now().getTime() + 5 * MINUTE).toISOString(),
    });
    const toNam = (await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION')).filter((message) => message.recipient === nam.phone);
    expect(toNam).toHaveLength(2);
    expect(codeOf(await call(app, patientToken, 'POST', `/health/me/followers/${nam.id}/resend`))).toEqual([409, 'contact.resendTooSoon']);
  });

  it('treats deleting and inviting the same phone again as a resend: not within 5 minutes', async () => {
    const body = { contactType: 'COACH', name: 'Trainer', phone: '0911000001', relationship: 'FRIEND' };
    const first = await call(app, patientToken, 'POST', '/health/me/followers', body);
    expect(first.statusCode, first.body).toBe(200);
    expect((await call(app, patientToken, 'DELETE', `/health/me/followers/${dataOf<Contact>(first).id}`)).statusCode).toBe(200);
    const again = await call(app, patientToken, 'POST', '/health/me/followers', { ...body, phone: '+0911000001' });
    expect(codeOf(again)).toEqual([409, 'contact.resendTooSoon']);
    expect(again.headers['retry-after']).toBe('300');
    clock.advance(5 * MINUTE);
    expect((await call(app, patientToken, 'POST', '/health/me/followers', body)).statusCode).toBe(200);
    expect((await patientOutbox(testDb.ownerUrl, org.patientA.id, 'FOLLOWER_INVITATION')).filter((message) => message.recipient === '0911000001')).toHaveLength(2);
  });

  it('answers another patient’s contact or an unknown id with contact.notFound, and staff with health.noPatientProfile', async () => {
    const bContact = await call(app, org.adminToken, 'POST', `/account/patients/${org.patientB.id}/contacts`, {
      contactType: 'CARING',
      name: 'Other',
      phone: '0906000001',
      relationship: 'OTHER',
    });
    expect(bContact.statusCode, bContact.body).toBe(200);
    const otherId = dataOf<Contact>(bContact).id;
    expect(codeOf(await call(app, patientToken, 'POST', `/health/me/followers/${otherId}/resend`))).toEqual([404, 'contact.notFound']);
    expect(codeOf(await call(app, patientToken, 'DELETE', `/health/me/followers/${otherId}`))).toEqual([404, 'contact.notFound']);
    expect((await contactRows(org.patientB.id)).map((row) => row.invitation_status)).toEqual(['SENT']);
    expect(codeOf(await call(app, org.adminToken, 'GET', '/health/me/followers'))).toEqual([404, 'health.noPatientProfile']);
    expect(codeOf(await call(app, org.adminToken, 'GET', '/health/me/invitations'))).toEqual([404, 'health.noPatientProfile']);
    expect(codeOf(await call(app, org.adminToken, 'GET', '/health/me/following'))).toEqual([404, 'health.noPatientProfile']);
  });
});

describe('the invitee confirms, declines, follows and stops following', () => {
  it('lists the invitations to the account’s phone with the patient’s name only', async () => {
    const response = await call(app, accounts.mai.token, 'GET', '/health/me/invitations');
    expect(response.statusCode, response.body).toBe(200);
    const invitations = dataOf<ReceivedInvitation[]>(response);
    expect(invitations.map((row) => [row.patientName, row.contactType, row.relationship, row.status])).toEqual([
      ['Anh Nguyen', 'EMERGENCY', 'WIFE', 'SENT'],
    ]);
    expect(Object.keys(invitations[0] ?? {}).sort()).toEqual(['contactType', 'id', 'patientName', 'relationship', 'sentAt', 'status']);
    // Before confirming, the invitee sees nothing of the patient.
    const seen = await testDb.database.withTenant(
      org.tenant.id,
      (tx) => tx.execute(sql`SELECT id FROM patients WHERE id = ${org.patientA.id}`),
      { ownRecordsOf: accounts.mai.id },
    );
    expect(seen.rows).toEqual([]);
  });

  it('confirms: the account follows the patient (My Patients), the patient sees who confirmed, an event tells both apps', async () => {
    const [invitation] = dataOf<ReceivedInvitation[]>(await call(app, accounts.mai.token, 'GET', '/health/me/invitations'));
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000001');
    const confirmed = await call(app, accounts.mai.token, 'POST', `/health/me/invitations/${invitation?.id ?? ''}/confirm`, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(dataOf<FollowedPatient>(confirmed)).toMatchObject({
      contactId: invitation?.id,
      patientId: org.patientA.id,
      name: 'Anh Nguyen',
      contactType: 'EMERGENCY',
      favourite: true,
      status: 'NORMAL',
      openSos: null,
      confirmedAt: clock.now().toISOString(),
    });
    const mai = await contactNamed('Mai');
    expect(mai).toMatchObject({ invitationStatus: 'CONFIRMED', follower: { userId: accounts.mai.id, name: 'Mai Follower' }, resendAvailableAt: null });
    expect((await eventsOfType('follower.changed')).map((event) => event.payload.contactId)).toContain(mai.id);
    // Nothing is pending any more; confirming again finds no invitation; a resend is no longer a move.
    expect(dataOf<ReceivedInvitation[]>(await call(app, accounts.mai.token, 'GET', '/health/me/invitations'))).toEqual([]);
    expect(codeOf(await call(app, accounts.mai.token, 'POST', `/health/me/invitations/${mai.id}/confirm`, { code }))).toEqual([404, 'invitation.notFound']);
    expect(codeOf(await call(app, patientToken, 'POST', `/health/me/followers/${mai.id}/resend`))).toEqual([409, 'contact.invalidTransition']);
  });

  it('keeps tenants apart: an account of another tenant with the invited phone sees and confirms nothing', async () => {
    const far = await createTenant(testDb.database);
    const farUser = await createTenantUser(testDb.database, far.id, { role: 'PATIENT', firstName: 'Far', lastName: 'Away', phone: '0902000002' });
    const farToken = await logInAs(app, far.code, farUser);
    expect(dataOf<ReceivedInvitation[]>(await call(app, farToken, 'GET', '/health/me/invitations'))).toEqual([]);
    const nam = await contactNamed('Nam');
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000002');
    expect(codeOf(await call(app, farToken, 'POST', `/health/me/invitations/${nam.id}/confirm`, { code }))).toEqual([404, 'invitation.notFound']);
    expect(codeOf(await call(app, farToken, 'POST', `/health/me/invitations/${nam.id}/decline`))).toEqual([404, 'invitation.notFound']);
    expect(codeOf(await call(app, farToken, 'DELETE', `/health/me/following/${nam.id}`))).toEqual([404, 'contact.notFound']);
    expect((await contactNamed('Nam')).invitationStatus).toBe('RESENT');
  });

  it('refuses an invitation sent to another phone, and one’s own invitation (request.toSelf)', async () => {
    const nam = await contactNamed('Nam');
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000002');
    expect(codeOf(await call(app, accounts.lan.token, 'POST', `/health/me/invitations/${nam.id}/confirm`, { code }))).toEqual([404, 'invitation.notFound']);
    // A contact with the patient's own account phone (the account's phone changed after the invitation).
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO patient_contacts (tenant_id, id, patient_id, contact_type, name, phone, relationship)
       VALUES ($1, gen_random_uuid(), $2, 'CARING', 'Me', '0907000001', 'OTHER')`,
      [org.tenant.id, org.patientA.id],
    );
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '0907000001' WHERE id = $1`, [org.patientUser.id]);
    const [own] = dataOf<ReceivedInvitation[]>(await call(app, patientToken, 'GET', '/health/me/invitations'));
    expect(codeOf(await call(app, patientToken, 'POST', `/health/me/invitations/${own?.id ?? ''}/confirm`, { code: '123456' }))).toEqual([
      400,
      'request.toSelf',
    ]);
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '0901000001' WHERE id = $1`, [org.patientUser.id]);
    await asOwner(testDb.ownerUrl, `DELETE FROM patient_contacts WHERE phone = '0907000001'`, []);
  });

  it('an account follows a patient once: a second confirmed invitation to it is contact.exists', async () => {
    // Mai's account gets a new phone and a second invitation reaches it there.
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '0908000001' WHERE id = $1`, [accounts.mai.id]);
    const second = await call(app, patientToken, 'POST', '/health/me/followers', {
      contactType: 'CARING',
      name: 'Mai again',
      phone: '0908000001',
      relationship: 'WIFE',
    });
    expect(second.statusCode, second.body).toBe(200);
    const secondId = dataOf<Contact>(second).id;
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0908000001');
    expect(codeOf(await call(app, accounts.mai.token, 'POST', `/health/me/invitations/${secondId}/confirm`, { code }))).toEqual([409, 'contact.exists']);
    expect((await call(app, patientToken, 'DELETE', `/health/me/followers/${secondId}`)).statusCode).toBe(200);
    await asOwner(testDb.ownerUrl, `UPDATE users SET phone = '0902000001' WHERE id = $1`, [accounts.mai.id]);
  });

  it('declines: the invitation is deleted and leaves the patient’s list', async () => {
    const nam = await contactNamed('Nam');
    const declined = await call(app, accounts.nam.token, 'POST', `/health/me/invitations/${nam.id}/decline`);
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await myFollowers()).map((row) => row.name)).not.toContain('Nam');
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000002');
    expect(codeOf(await call(app, accounts.nam.token, 'POST', `/health/me/invitations/${nam.id}/confirm`, { code }))).toEqual([404, 'invitation.notFound']);
    expect(codeOf(await call(app, patientToken, 'DELETE', `/health/me/followers/${nam.id}`))).toEqual([409, 'contact.invalidTransition']);
  });

  it('shows the followed patient’s open SOS case and status in My Patients', async () => {
    const raised = await call(app, patientToken, 'POST', '/health/alerts/sos', { source: 'SOS_BUTTON' });
    expect(raised.statusCode, raised.body).toBe(200);
    const following = dataOf<FollowedPatient[]>(await call(app, accounts.mai.token, 'GET', '/health/me/following'));
    expect(following.map((row) => [row.name, row.status, row.openSos?.status, row.openSos?.caseId])).toEqual([
      ['Anh Nguyen', 'SOS', 'NEW', dataOf<{ sosCaseId: string }>(raised).sosCaseId],
    ]);
  });

  it('hides data kinds per follower: the grant carries them at once, the follower’s list says so, an event is published', async () => {
    const mai = await contactNamed('Mai');
    await asOwner(
      testDb.ownerUrl,
      `INSERT INTO readings_daily (tenant_id, patient_id, measure, bucket_start, count, sum, min, max, last_value, last_at)
       VALUES ($1, $2, 'HEART_RATE', date_trunc('day', now()), 1, 70, 70, 70, 70, now()), ($1, $2, 'SPO2', date_trunc('day', now()), 1, 97, 97, 97, 97, now())`,
      [org.tenant.id, org.patientA.id],
    );
    const measuresSeen = async () => {
      const dashboard = await asProfile(accounts.mai.token, 'GET', '/health/me/dashboard', org.patientA.id);
      expect(dashboard.statusCode, dashboard.body).toBe(200);
      return dataOf<{ readings: { measure: string }[] }>(dashboard).readings.map((reading) => reading.measure).sort();
    };
    expect(await measuresSeen()).toEqual(['HEART_RATE', 'SPO2']);
    const hidden = await call(app, patientToken, 'PUT', `/health/me/followers/${mai.id}/hidden`, { hiddenKinds: ['HEART_RATE', 'SLEEP'] });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(dataOf<Contact>(hidden).hiddenKinds).toEqual(['HEART_RATE', 'SLEEP']);
    const grants = await asOwner<{ hidden_kinds: string[] }>(testDb.ownerUrl, 'SELECT hidden_kinds FROM follower_grants WHERE contact_id = $1', [mai.id]);
    expect(grants.map((row) => row.hidden_kinds)).toEqual([['HEART_RATE', 'SLEEP']]);
    // The follower's next read through the app's own routes no longer carries the heart rate.
    expect(await measuresSeen()).toEqual(['SPO2']);
    const [followed] = dataOf<FollowedPatient[]>(await call(app, accounts.mai.token, 'GET', '/health/me/following'));
    expect(followed?.hiddenKinds).toEqual(['HEART_RATE', 'SLEEP']);
    expect((await eventsOfType('follower.changed')).filter((event) => event.payload.contactId === mai.id).length).toBeGreaterThanOrEqual(2);
    expect((await call(app, patientToken, 'PUT', `/health/me/followers/${mai.id}/hidden`, { hiddenKinds: ['SLEEP', 'SLEEP'] })).statusCode).toBe(400);
  });

  it('keeps a followed patient’s profile read only: the follower cannot change its followers', async () => {
    const invite = { contactType: 'CARING', name: 'Intruder', phone: '0909000001', relationship: 'OTHER' };
    expect(codeOf(await asProfile(accounts.mai.token, 'POST', '/health/me/followers', org.patientA.id, invite))).toEqual([403, 'profile.readOnly']);
    // Of the patient's followers, the follower sees only its own contact.
    const seen = dataOf<Contact[]>(await asProfile(accounts.mai.token, 'GET', '/health/me/followers', org.patientA.id));
    expect(seen.map((row) => row.name)).toEqual(['Mai']);
  });

  it('a follower the patient deletes loses access at once: its reads of the patient answer 404', async () => {
    expect((await asProfile(accounts.mai.token, 'GET', '/health/me/notifications', org.patientA.id)).statusCode).toBe(200);
    const mai = await contactNamed('Mai');
    expect((await call(app, patientToken, 'DELETE', `/health/me/followers/${mai.id}`)).statusCode).toBe(200);
    expect(codeOf(await asProfile(accounts.mai.token, 'GET', '/health/me/notifications', org.patientA.id))).toEqual([404, 'profile.notFound']);
    expect(codeOf(await asProfile(accounts.mai.token, 'GET', '/health/me/followers', org.patientA.id))).toEqual([404, 'profile.notFound']);
    expect(dataOf<FollowedPatient[]>(await call(app, accounts.mai.token, 'GET', '/health/me/following'))).toEqual([]);
    const grants = await asOwner(testDb.ownerUrl, 'SELECT 1 FROM follower_grants WHERE contact_id = $1', [mai.id]);
    expect(grants).toEqual([]);
    const row = (await contactRows(org.patientA.id)).find((contact) => contact.name === 'Mai');
    expect(row).toMatchObject({ invitation_status: 'DELETED', follower_user_id: accounts.mai.id });
  });

  it('the follower stops following: deleted, access gone, a second stop finds nothing', async () => {
    const lan = await contactNamed('Lan');
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0902000003');
    expect((await call(app, accounts.lan.token, 'POST', `/health/me/invitations/${lan.id}/confirm`, { code })).statusCode).toBe(200);
    expect(dataOf<FollowedPatient[]>(await call(app, accounts.lan.token, 'GET', '/health/me/following'))).toHaveLength(1);
    // Another account cannot end Lan's follow.
    expect(codeOf(await call(app, accounts.minh.token, 'DELETE', `/health/me/following/${lan.id}`))).toEqual([404, 'contact.notFound']);
    const stopped = await call(app, accounts.lan.token, 'DELETE', `/health/me/following/${lan.id}`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(dataOf<FollowedPatient[]>(await call(app, accounts.lan.token, 'GET', '/health/me/following'))).toEqual([]);
    expect((await myFollowers()).map((row) => row.name)).not.toContain('Lan');
    expect(codeOf(await asProfile(accounts.lan.token, 'GET', '/health/me/notifications', org.patientA.id))).toEqual([404, 'profile.notFound']);
    expect(codeOf(await call(app, accounts.lan.token, 'DELETE', `/health/me/following/${lan.id}`))).toEqual([404, 'contact.notFound']);
    const audits = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE request_id = $1`, [
      String(stopped.headers['x-request-id']),
    ]);
    expect(audits.map((audit) => audit.action)).toEqual(['FOLLOWING_STOPPED']);
  });

  it('a deleted follower may be invited again as a new invitation', async () => {
    const again = await call(app, patientToken, 'POST', '/health/me/followers', {
      contactType: 'CARING',
      name: 'Lan',
      phone: '0902000003',
      relationship: 'FRIEND',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(dataOf<Contact>(again).invitationStatus).toBe('SENT');
    expect((await contactRows(org.patientA.id)).filter((row) => row.phone === '0902000003').map((row) => row.invitation_status)).toEqual([
      'DELETED',
      'SENT',
    ]);
  });
});

describe('a holder manages its sub-user’s followers', () => {
  it('invites for the sub-user chosen in the profile header, in the holder’s language; the holder’s phone is its own', async () => {
    const subUser = await createPatient(testDb.database, org.tenant.id, {
      healthCenterId: org.centerA.id,
      firstName: 'Be',
      lastName: 'Nguyen',
      birthday: '2015-05-01',
      accountKind: 'SUB_USER',
      holderUserId: org.patientUser.id,
      userId: null,
      relation: 'CHILD',
    });
    await asOwner(testDb.ownerUrl, `UPDATE users SET language = 'vi' WHERE id = $1`, [org.patientUser.id]);
    const invite = { contactType: 'CARING', name: 'Grandma', phone: '0910000001', relationship: 'PARENT' };
    const invited = await asProfile(patientToken, 'POST', '/health/me/followers', subUser.id, invite);
    expect(invited.statusCode, invited.body).toBe(200);
    expect(dataOf<Contact>(invited).patientId).toBe(subUser.id);
    const [sms] = await patientOutbox(testDb.ownerUrl, subUser.id, 'FOLLOWER_INVITATION');
    expect(sms?.body).toContain('Be Nguyen mời bạn theo dõi sức khỏe');
    expect(codeOf(await asProfile(patientToken, 'POST', '/health/me/followers', subUser.id, { ...invite, phone: '0901000001' }))).toEqual([
      400,
      'request.toSelf',
    ]);
    // The holder's own list is its own record's; the sub-user's list is the sub-user's.
    expect((await myFollowers()).map((row) => row.name)).not.toContain('Grandma');
    const subList = dataOf<Contact[]>(await asProfile(patientToken, 'GET', '/health/me/followers', subUser.id));
    expect(subList.map((row) => row.name)).toEqual(['Grandma']);
    await asOwner(testDb.ownerUrl, `UPDATE users SET language = 'en' WHERE id = $1`, [org.patientUser.id]);

    // Grandma confirms from her own account and follows the sub-user.
    const grandma = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', firstName: 'Ba', lastName: 'Noi', phone: '0910000001' });
    const grandmaToken = await logInAs(app, org.tenant.code, grandma);
    const code = await lastInvitationCodeTo(testDb.ownerUrl, '0910000001');
    const confirmed = await call(app, grandmaToken, 'POST', `/health/me/invitations/${dataOf<Contact>(invited).id}/confirm`, { code });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(dataOf<FollowedPatient>(confirmed)).toMatchObject({ patientId: subUser.id, name: 'Be Nguyen', relationship: 'PARENT' });
  });
});

describe('only the holder of the invited phone confirms: the code of the invitation SMS', () => {
  // Someone registered an account with Hoa's phone number (registration verifies the email only).
  const phone = '0912000001';
  let invitationId = '';
  let impostor: { email: string | null } = { email: null };
  const tokens = { patient: '', admin: '', impostor: '' };
  // Sessions end as the clock moves on: sign in again after it does.
  const signIn = async () => {
    tokens.patient = await logInAs(app, org.tenant.code, org.patientUser);
    tokens.admin = await logInAs(app, org.tenant.code, org.admin);
    tokens.impostor = await logInAs(app, org.tenant.code, impostor);
  };
  const advance = async (milliseconds: number) => {
    clock.advance(milliseconds);
    await signIn();
  };
  const confirm = (code: unknown) =>
    call(app, tokens.impostor, 'POST', `/health/me/invitations/${invitationId}/confirm`, code === undefined ? {} : { code });
  const stored = () =>
    asOwner<{ invitation_status: string; invitation_code_attempts: number; invitation_code_hash: Buffer | null }>(
      testDb.ownerUrl,
      'SELECT invitation_status, invitation_code_attempts, invitation_code_hash FROM patient_contacts WHERE id = $1',
      [invitationId],
    ).then((rows) => rows[0]);
  const resend = async () => {
    await advance(5 * MINUTE);
    const resent = await call(app, tokens.patient, 'POST', `/health/me/followers/${invitationId}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    return resent;
  };

  beforeAll(async () => {
    impostor = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', firstName: 'Not', lastName: 'Hoa', phone });
    await advance(5 * MINUTE);
  });

  it('puts the code in the SMS only: not in the invite’s answer, any list, the audit or the stored row', async () => {
    const invited = await call(app, tokens.patient, 'POST', '/health/me/followers', { contactType: 'CARING', name: 'Hoa', phone, relationship: 'FRIEND' });
    expect(invited.statusCode, invited.body).toBe(200);
    invitationId = dataOf<Contact>(invited).id;
    const code = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    const answers = [
      invited,
      await call(app, tokens.patient, 'GET', '/health/me/followers'),
      await call(app, tokens.admin, 'GET', `/account/patients/${org.patientA.id}/contacts`),
      await call(app, tokens.impostor, 'GET', '/health/me/invitations'),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).not.toContain(code);
      expect(answer.body).not.toMatch(/code_?hash|codeHash|attempts/iu);
    }
    const audits = await asOwner<{ details: unknown }>(testDb.ownerUrl, 'SELECT details FROM audit_log WHERE request_id = $1', [
      String(invited.headers['x-request-id']),
    ]);
    expect(JSON.stringify(audits)).not.toContain(code);
    const row = await stored();
    expect(row?.invitation_code_hash?.length).toBe(32);
    expect(row?.invitation_code_hash?.toString('utf8')).not.toContain(code);
    expect(row?.invitation_code_hash?.toString('hex')).not.toContain(code);
  });

  it('refuses a confirmation without a 6-digit code as bad input, counting nothing', async () => {
    for (const code of [undefined, '12345', '1234567', 'abcdef', 123456]) expect((await confirm(code)).statusCode).toBe(400);
    expect(codeOf(await confirm(undefined))).toEqual([400, 'common.invalidParameter']);
    expect(await stored()).toMatchObject({ invitation_status: 'SENT', invitation_code_attempts: 0 });
  });

  it('refuses a wrong code with invitation.wrongCode, counted, said under the code field; nothing is confirmed', async () => {
    const code = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    const wrong = await confirm(otherCode(code));
    expect(codeOf(wrong)).toEqual([400, 'invitation.wrongCode']);
    expect(wrong.json<{ fieldErrors: { field: string }[] }>().fieldErrors.map((error) => error.field)).toEqual(['body.code']);
    expect(wrong.body).not.toContain(code);
    expect(await stored()).toMatchObject({ invitation_status: 'SENT', invitation_code_attempts: 1 });
    expect(dataOf<FollowedPatient[]>(await call(app, tokens.impostor, 'GET', '/health/me/following'))).toEqual([]);
  });

  it('a resend replaces the code: the earlier one is wrong, the tries start again', async () => {
    const before = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    await resend();
    const after = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    expect(await stored()).toMatchObject({ invitation_status: 'RESENT', invitation_code_attempts: 0 });
    // Two independent draws are equal once in a million: only then is the earlier code still right.
    if (after !== before) expect(codeOf(await confirm(before))).toEqual([400, 'invitation.wrongCode']);
    expect((await stored())?.invitation_status).toBe('RESENT');
  });

  it('after 5 wrong codes refuses every try, the right code too, until the patient resends', async () => {
    const code = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    const tries = (await stored())?.invitation_code_attempts ?? 0;
    for (let attempt = tries + 1; attempt < 5; attempt += 1) expect(codeOf(await confirm(otherCode(code)))).toEqual([400, 'invitation.wrongCode']);
    expect(codeOf(await confirm(otherCode(code)))).toEqual([400, 'invitation.tooManyAttempts']);
    expect(codeOf(await confirm(code))).toEqual([400, 'invitation.tooManyAttempts']);
    expect(await stored()).toMatchObject({ invitation_status: 'RESENT', invitation_code_attempts: 5 });
    await resend();
    expect(await stored()).toMatchObject({ invitation_code_attempts: 0 });
  });

  it('refuses a code 7 days old (invitation.codeExpired); a resend brings a new one', async () => {
    const code = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    await advance(7 * 24 * 60 * MINUTE);
    expect(codeOf(await confirm(code))).toEqual([400, 'invitation.codeExpired']);
    expect((await stored())?.invitation_code_attempts).toBe(0);
    await resend();
  });

  it('confirms with the right code of the last SMS; the code is spent, and stays out of the audit', async () => {
    const code = await lastInvitationCodeTo(testDb.ownerUrl, phone);
    const confirmed = await confirm(code);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.body).not.toContain(code);
    expect(dataOf<FollowedPatient>(confirmed)).toMatchObject({ contactId: invitationId, patientId: org.patientA.id });
    expect(await stored()).toMatchObject({ invitation_status: 'CONFIRMED', invitation_code_hash: null });
    const audits = await asOwner<{ action: string; details: unknown }>(testDb.ownerUrl, 'SELECT action, details FROM audit_log WHERE request_id = $1', [
      String(confirmed.headers['x-request-id']),
    ]);
    expect(audits.map((row) => row.action)).toContain('FOLLOWER_INVITATION_CONFIRMED');
    expect(JSON.stringify(audits)).not.toContain(code);
    expect(codeOf(await confirm(code))).toEqual([404, 'invitation.notFound']);
  });
});
