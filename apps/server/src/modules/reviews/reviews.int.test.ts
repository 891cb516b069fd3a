import { PROFILE_HEADER, type MyReview, type PublicReviewPage, type Review } from '@rpm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/app.js';
import { asOwner, createTestDatabase, type TestDatabase } from '../../../test/database.js';
import { createPatient, createTenant, createTenantUser } from '../../../test/factories.js';
import { multipart, type Part } from '../../../test/multipart.js';
import type { Page } from '../care-plan/store.js';
import { call, careOrganisation, codeOf, dataOf, logInAs, PNG, type CareOrganisation } from '../doctors/test-support.js';
import { sendForm } from '../org/test-support.js';
import { GIF, insertAppointment, ratingOf } from './test-support.js';

/**
 * Ratings and reviews (spec §2 rating and review management, §3 Review, §5 review images): who may
 * rate what, the 1..5 bounds, the image rules, the doctor's average from the visible reviews,
 * moderation, what other patients see of an author, and tenant and center isolation.
 */

let testDb: TestDatabase;
let app: FastifyInstance;
let org: CareOrganisation;
let patient: string;
let admin: string;

const form = (fields: Record<string, string>, images: Part[] = []) =>
  multipart([...Object.entries(fields).map(([name, content]) => ({ name, content })), ...images]);
const image = (content: Buffer, filename = 'photo.png', contentType = 'image/png'): Part => ({ name: 'images', filename, contentType, content });
const rateDoctor = (token: string, doctorId: string, body: ReturnType<typeof multipart>) =>
  sendForm(app, token, 'PUT', `/health/me/doctors/${doctorId}/review`, body);
const rateAppointment = (token: string, appointmentId: string, body: ReturnType<typeof multipart>) =>
  sendForm(app, token, 'PUT', `/health/me/appointments/${appointmentId}/review`, body);
const reviewCount = async () =>
  (await asOwner<{ count: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS count FROM doctor_reviews WHERE tenant_id = $1', [org.tenant.id]))[0]?.count;
const imageCount = async (reviewId: string) =>
  (await asOwner<{ count: number }>(testDb.ownerUrl, 'SELECT count(*)::int AS count FROM doctor_review_images WHERE review_id = $1', [reviewId]))[0]?.count;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await createTestApp(testDb.database);
  org = await careOrganisation(testDb);
  // Doctor A is on the patient's care team; doctor A2 is not.
  await asOwner(testDb.ownerUrl, `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'FAMILY')`, [
    org.tenant.id,
    org.patientA.id,
    org.doctorA.id,
  ]);
  patient = await logInAs(app, org.tenant.code, org.patientUser);
  admin = await logInAs(app, org.tenant.code, org.admin);
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

describe('a patient rates a doctor', () => {
  it('refuses a doctor without a care relationship, and ratings out of 1..5', async () => {
    const before = await reviewCount();
    const unrelated = await rateDoctor(patient, org.doctorA2.id, form({ rating: '5' }));
    expect(unrelated.statusCode, unrelated.body).toBe(403);
    expect(codeOf(unrelated)).toBe('review.noRelation');
    for (const rating of ['0', '6', '4.5', 'many']) {
      const refused = await rateDoctor(patient, org.doctorA.id, form({ rating, message: 'Kind' }));
      expect(refused.statusCode, `${rating}: ${refused.body}`).toBe(400);
      expect(codeOf(refused)).toBe('common.invalidParameter');
    }
    const missing = await rateDoctor(patient, org.doctorA.id, form({ message: 'No stars' }));
    expect(missing.statusCode).toBe(400);
    expect(await reviewCount()).toBe(before);
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 0, count: 0 });
  });

  it('writes a review with images and recounts the doctor’s rating; a second one replaces it', async () => {
    const written = await rateDoctor(patient, org.doctorA.id, form({ rating: '4', message: 'Listened carefully' }, [image(PNG), image(GIF, 'a.gif', 'image/gif')]));
    expect(written.statusCode, written.body).toBe(200);
    const review = dataOf<MyReview>(written);
    expect(review).toMatchObject({ rating: 4, message: 'Listened carefully', subject: 'DOCTOR', doctorId: org.doctorA.id, isHidden: false });
    expect(review.images.map((entry) => entry.contentType)).toEqual(['image/png', 'image/gif']);
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 4, count: 1 });

    // Without new images the old ones stay; the rating is replaced, not added.
    const edited = dataOf<MyReview>(await rateDoctor(patient, org.doctorA.id, form({ rating: '2', message: 'Late twice' })));
    expect(edited.id).toBe(review.id);
    expect(edited).toMatchObject({ rating: 2, message: 'Late twice' });
    expect(edited.images).toHaveLength(2);
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 2, count: 1 });
    const audits = await asOwner(testDb.ownerUrl, `SELECT 1 FROM audit_log WHERE action = 'REVIEW_WRITTEN' AND target_id = $1`, [review.id]);
    expect(audits).toHaveLength(2);
    // The doctor was told once, of the new review, by the author's initial only (not of the edit).
    const notices = await asOwner<{ kind: string; params: Record<string, unknown>; link: string }>(
      testDb.ownerUrl,
      `SELECT kind, params, link FROM notifications WHERE recipient_id = $1 AND kind = 'review.received'`,
      [org.doctorA.id],
    );
    expect(notices).toEqual([
      { kind: 'review.received', params: { rating: review.rating, authorInitial: expect.any(String) as string, subject: 'DOCTOR' }, link: `/doctors/${org.doctorA.id}` },
    ]);

    const cleared = dataOf<MyReview>(await rateDoctor(patient, org.doctorA.id, form({ rating: '3', removeImages: 'true' })));
    expect(cleared.images).toEqual([]);
    expect(await imageCount(review.id)).toBe(0);

    const mine = dataOf<Page<MyReview>>(await call(app, patient, 'GET', '/health/me/reviews'));
    expect(mine.items.map((item) => item.id)).toEqual([review.id]);
  });

  it('checks each image by content and size, at most 3, and keeps the review as it was', async () => {
    const before = dataOf<Page<MyReview>>(await call(app, patient, 'GET', '/health/me/reviews')).items[0];
    const script = await rateDoctor(patient, org.doctorA.id, form({ rating: '5' }, [image(Buffer.from('<script>alert(1)</script>'))]));
    expect(script.statusCode).toBe(415);
    expect(codeOf(script)).toBe('file.unsupportedType');
    const large = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024, 1)]);
    const tooLarge = await rateDoctor(patient, org.doctorA.id, form({ rating: '5' }, [image(large)]));
    expect(tooLarge.statusCode).toBe(413);
    expect(codeOf(tooLarge)).toBe('file.tooLarge');
    const tooMany = await rateDoctor(patient, org.doctorA.id, form({ rating: '5' }, [image(PNG), image(PNG), image(PNG), image(PNG)]));
    expect(tooMany.statusCode).toBe(400);
    expect(codeOf(tooMany)).toBe('review.tooManyImages');
    const pdf = await rateDoctor(patient, org.doctorA.id, form({ rating: '5' }, [image(Buffer.from('%PDF-1.4 file'), 'x.pdf', 'application/pdf')]));
    expect(pdf.statusCode).toBe(415);
    const after = dataOf<Page<MyReview>>(await call(app, patient, 'GET', '/health/me/reviews')).items[0];
    expect(after).toEqual(before);
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 3, count: 1 });
  });

  it('rates for a sub-user the account holds (profile header), never for a patient it does not hold', async () => {
    const subUser = await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerA.id, holderUserId: org.patientUser.id, accountKind: 'SUB_USER', firstName: 'Mai', lastName: 'Pham' });
    await asOwner(testDb.ownerUrl, `INSERT INTO patient_doctors (tenant_id, patient_id, doctor_id, relation) VALUES ($1, $2, $3, 'SPECIALIST')`, [org.tenant.id, subUser.id, org.doctorB.id]);
    const asSubUser = (body: ReturnType<typeof multipart>, profile: string) =>
      app.inject({ method: 'PUT', url: `/health/me/doctors/${org.doctorB.id}/review`, payload: body.payload, headers: { ...body.headers, cookie: `rpm_session=${patient}`, [PROFILE_HEADER]: profile } });
    const written = await asSubUser(form({ rating: '4' }), subUser.id);
    expect(written.statusCode, written.body).toBe(200);
    const rows = await asOwner<{ patient_id: string; author_initial: string }>(testDb.ownerUrl, 'SELECT patient_id, author_initial FROM doctor_reviews WHERE doctor_id = $1', [org.doctorB.id]);
    expect(rows).toEqual([{ patient_id: subUser.id, author_initial: 'M' }]);
    const stranger = await asSubUser(form({ rating: '1' }), org.patientA2.id);
    expect(stranger.statusCode).toBe(404);
    expect(codeOf(stranger)).toBe('profile.notFound');
    expect(await ratingOf(testDb.ownerUrl, org.doctorB.id)).toEqual({ average: 4, count: 1 });
  });

  it('staff sessions have no record to rate for', async () => {
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const response = await rateDoctor(doctor, org.doctorA2.id, form({ rating: '5' }));
    expect(response.statusCode).toBe(404);
    expect(codeOf(response)).toBe('health.noPatientProfile');
  });
});

describe('a patient rates an appointment', () => {
  it('rates its own completed appointment only, which also opens the doctor to a review', async () => {
    const upcoming = await insertAppointment(testDb.ownerUrl, { tenantId: org.tenant.id, patientId: org.patientA.id, doctorId: org.doctorA2.id, status: 'UPCOMING' });
    const notDone = await rateAppointment(patient, upcoming, form({ rating: '5' }));
    expect(notDone.statusCode).toBe(409);
    expect(codeOf(notDone)).toBe('review.appointmentNotCompleted');
    const someoneElses = await insertAppointment(testDb.ownerUrl, { tenantId: org.tenant.id, patientId: org.patientA2.id, doctorId: org.doctorA2.id, status: 'COMPLETED' });
    const other = await rateAppointment(patient, someoneElses, form({ rating: '5' }));
    expect(other.statusCode).toBe(404);
    expect(codeOf(other)).toBe('appointment.notFound');
    expect(await ratingOf(testDb.ownerUrl, org.doctorA2.id)).toEqual({ average: 0, count: 0 });

    const completed = await insertAppointment(testDb.ownerUrl, { tenantId: org.tenant.id, patientId: org.patientA.id, doctorId: org.doctorA2.id, status: 'COMPLETED' });
    const rated = await rateAppointment(patient, completed, form({ rating: '5', message: 'Clear advice' }));
    expect(rated.statusCode, rated.body).toBe(200);
    expect(dataOf<MyReview>(rated)).toMatchObject({ subject: 'APPOINTMENT', appointmentId: completed, doctorId: org.doctorA2.id });
    expect(await ratingOf(testDb.ownerUrl, org.doctorA2.id)).toEqual({ average: 5, count: 1 });
    // Seen at a completed appointment: the doctor may now be rated too; both reviews count.
    expect((await rateDoctor(patient, org.doctorA2.id, form({ rating: '4' }))).statusCode).toBe(200);
    expect(await ratingOf(testDb.ownerUrl, org.doctorA2.id)).toEqual({ average: 4.5, count: 2 });
  });
});

describe('rating and review management', () => {
  const reviewOfDoctorA = async () => {
    const page = dataOf<Page<Review>>(await call(app, admin, 'GET', `/account/reviews?doctorId=${org.doctorA.id}`));
    const found = page.items[0];
    if (found === undefined) throw new Error('no review of doctor A');
    return found;
  };

  it('lists with search, filters and sort; shows the author to staff, audited', async () => {
    const page = dataOf<Page<Review>>(await call(app, admin, 'GET', '/account/reviews?sortField=rating&sortType=desc'));
    expect(page.total).toBe(4);
    expect(page.items.map((item) => item.rating)).toEqual([5, 4, 4, 3]);
    expect(page.items[0]?.patient.fullName).toBe('Hung Pham');
    const searched = dataOf<Page<Review>>(await call(app, admin, 'GET', '/account/reviews?search=clear%20advice'));
    expect(searched.items.map((item) => item.rating)).toEqual([5]);
    expect(dataOf<Page<Review>>(await call(app, admin, 'GET', '/account/reviews?rating=3')).total).toBe(1);
    expect(dataOf<Page<Review>>(await call(app, admin, 'GET', '/account/reviews?state=HIDDEN')).total).toBe(0);
    expect((await call(app, admin, 'GET', '/account/reviews?rating=6')).statusCode).toBe(400);
    const audits = await asOwner<{ details: { patientIds: string[] } }>(testDb.ownerUrl, `SELECT details FROM audit_log WHERE action = 'REVIEWS_LISTED' AND actor_user_id = $1`, [org.admin.id]);
    expect(audits.some((row) => row.details.patientIds.includes(org.patientA.id))).toBe(true);
  });

  it('hides and shows again with a reason, recounting the average; reports with a message', async () => {
    const review = await reviewOfDoctorA();
    const moderate = (action: string, reason: string, token = admin) =>
      call(app, token, 'POST', `/account/reviews/${review.id}/moderation`, { action, reason });
    expect((await moderate('hide', '   ')).statusCode).toBe(400);
    const hidden = await moderate('hide', 'Insults staff');
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(dataOf<Review>(hidden)).toMatchObject({ state: 'HIDDEN', hiddenReason: 'Insults staff', hiddenBy: { id: org.admin.id } });
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 0, count: 0 });
    const again = await moderate('hide', 'Twice');
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('review.wrongState');
    expect(codeOf(await moderate('report', 'While hidden'))).toBe('review.wrongState');
    // The author still sees its own review, flagged hidden; other patients do not.
    expect(dataOf<Page<MyReview>>(await call(app, patient, 'GET', '/health/me/reviews')).items.find((item) => item.id === review.id)?.isHidden).toBe(true);

    const shown = await moderate('unhide', 'Reviewed with the author');
    expect(dataOf<Review>(shown).state).toBe('VISIBLE');
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 3, count: 1 });
    const reported = dataOf<Review>(await moderate('report', 'Mentions another patient'));
    expect(reported).toMatchObject({ state: 'REPORTED', reportMessage: 'Mentions another patient' });
    expect(await ratingOf(testDb.ownerUrl, org.doctorA.id)).toEqual({ average: 3, count: 1 });
    const audits = await asOwner<{ action: string }>(testDb.ownerUrl, `SELECT action FROM audit_log WHERE target_id = $1 AND action LIKE 'REVIEW_%' AND action <> 'REVIEW_WRITTEN' AND action <> 'REVIEW_VIEWED' ORDER BY occurred_at`, [review.id]);
    expect(audits.map((row) => row.action)).toEqual(['REVIEW_HIDDEN', 'REVIEW_UNHIDDEN', 'REVIEW_REPORTED']);

    // A doctor reads doctors but does not manage reviews.
    const doctor = await logInAs(app, org.tenant.code, org.doctorA);
    const refused = await moderate('hide', 'Not mine to hide', doctor);
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('auth.permissionDenied');
    expect((await call(app, doctor, 'GET', '/account/reviews')).statusCode).toBe(403);
    // The doctor sees its reviews on its profile, without the authors.
    const own = dataOf<PublicReviewPage>(await call(app, doctor, 'GET', `/account/doctors/${org.doctorA.id}/reviews`));
    expect(own).toMatchObject({ ratingAverage: 3, ratingCount: 1, total: 1 });
    expect(JSON.stringify(own)).not.toContain(org.patientA.id);
  });

  it('shows other patients a doctor’s visible reviews with the author’s initial only', async () => {
    const otherUser = await createTenantUser(testDb.database, org.tenant.id, { role: 'PATIENT', healthCenterId: org.centerB.id, firstName: 'Other', lastName: 'Reader' });
    await createPatient(testDb.database, org.tenant.id, { healthCenterId: org.centerB.id, userId: otherUser.id, firstName: 'Other', lastName: 'Reader' });
    const other = await logInAs(app, org.tenant.code, otherUser);
    const response = await call(app, other, 'GET', `/health/me/doctors/${org.doctorA2.id}/reviews`);
    expect(response.statusCode, response.body).toBe(200);
    const page = dataOf<PublicReviewPage>(response);
    expect(page).toMatchObject({ ratingAverage: 4.5, ratingCount: 2, total: 2 });
    expect(page.items.map((item) => item.authorInitial)).toEqual(['H', 'H']);
    expect(response.body).not.toContain(org.patientA.id);
    expect(response.body).not.toContain('Pham');
    // Its own list is empty: another patient's reviews are not its own.
    expect(dataOf<Page<MyReview>>(await call(app, other, 'GET', '/health/me/reviews')).total).toBe(0);
    // A hidden review leaves the public list.
    const review = dataOf<Page<Review>>(await call(app, admin, 'GET', `/account/reviews?doctorId=${org.doctorA2.id}&rating=4`)).items[0];
    await call(app, admin, 'POST', `/account/reviews/${review?.id ?? ''}/moderation`, { action: 'hide', reason: 'Spam' });
    const after = dataOf<PublicReviewPage>(await call(app, other, 'GET', `/health/me/doctors/${org.doctorA2.id}/reviews`));
    expect(after).toMatchObject({ ratingAverage: 5, ratingCount: 1, total: 1 });
  });

  it('another center’s admin and another tenant see nothing and change nothing', async () => {
    const review = await reviewOfDoctorA();
    // Center B's admin sees center B's doctor, but not the center A patients who reviewed it.
    const centerB = await logInAs(app, org.tenant.code, org.adminB);
    expect(dataOf<Page<Review>>(await call(app, centerB, 'GET', '/account/reviews')).total).toBe(0);
    expect((await call(app, centerB, 'GET', `/account/reviews/${review.id}`)).statusCode).toBe(404);

    const otherTenant = await createTenant(testDb.database);
    const otherAdmin = await createTenantUser(testDb.database, otherTenant.id, { role: 'ADMIN' });
    const stranger = await logInAs(app, otherTenant.code, otherAdmin);
    expect(dataOf<Page<Review>>(await call(app, stranger, 'GET', '/account/reviews')).total).toBe(0);
    const read = await call(app, stranger, 'GET', `/account/reviews/${review.id}`);
    expect(read.statusCode).toBe(404);
    expect(codeOf(read)).toBe('review.notFound');
    const image = await call(app, stranger, 'GET', `/account/reviews/${review.id}/images/${review.id}`);
    expect(image.statusCode).toBe(404);
    const hide = await call(app, stranger, 'POST', `/account/reviews/${review.id}/moderation`, { action: 'hide', reason: 'Cross-tenant' });
    expect(hide.statusCode).toBe(404);
    expect((await reviewOfDoctorA()).state).toBe('REPORTED');
    expect((await call(app, stranger, 'GET', `/account/doctors/${org.doctorA.id}/reviews`)).statusCode).toBe(404);
  });

  it('serves a review image’s bytes to the admin', async () => {
    const written = dataOf<MyReview>(await rateDoctor(patient, org.doctorA.id, form({ rating: '3' }, [image(PNG)])));
    const imageId = written.images[0]?.id ?? '';
    const bytes = await call(app, admin, 'GET', `/account/reviews/${written.id}/images/${imageId}`);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.rawPayload.equals(PNG)).toBe(true);
  });
});
