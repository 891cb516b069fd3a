import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * The family doctor and specialists in the patient app on a small phone (360 px wide, touch): the
 * demo patient finds a doctor by name and role, opens the profile, asks the doctor to be their
 * family doctor, finds the request under Sent and cancels it; then answers doctors' requests under
 * Received (a rejection needs a reason) and finds the approved doctor under My doctors.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;

describe('patient app doctors', () => {
  it('searches a doctor, opens the profile, sends a family-doctor request, sees it under Sent and cancels it', async () => {
    // A retry starts again from no waiting request of the demo patient to the doctor.
    await queryDatabase(
      suite.server,
      `UPDATE care_requests SET status = 'CANCELED', decided_at = now()
        WHERE status = 'WAITING' AND doctor_id = (SELECT id FROM users WHERE email = 'thu.pham@demo.example')`,
    );
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);

    await page.getByRole('link', { name: 'Doctors', exact: true }).tap();
    await page.waitForURL('**/app/doctors');
    await expect.poll(() => page.getByRole('heading', { name: 'Find a doctor', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.locator('.doctor-list li').count()).toBeGreaterThan(1);

    // By name, then narrowed to family doctors: the list shows the matching doctor only.
    await page.getByLabel('Doctor’s name').or(page.getByLabel("Doctor's name")).fill('thu');
    await page.getByRole('button', { name: 'Search', exact: true }).tap();
    await page.getByLabel('Role').selectOption({ label: 'Family doctor' });
    await expect.poll(() => page.locator('.doctor-list .doctor-name').allTextContents()).toEqual(['Thu Pham']);
    expect(await page.getByText('Showing 1 of 1').isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-doctors-search-360');

    // Nobody by that name among specialists: the empty state says so.
    await page.getByLabel('Role').selectOption({ label: 'Specialist' });
    await expect.poll(() => page.getByText('No doctor matches your search.').isVisible()).toBe(true);
    await page.getByLabel('Role').selectOption({ label: 'Family doctors and specialists' });

    await page.getByRole('link', { name: /Thu Pham/ }).tap();
    await page.waitForURL(/\/app\/doctors\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Thu Pham', level: 1 }).isVisible()).toBe(true);
    const specialties = page.getByRole('list', { name: 'Specialties' }).getByRole('listitem');
    expect(await specialties.allTextContents()).toEqual(['Family medicine', 'Geriatrics']);
    expect(await page.locator('.license-list .badge').allTextContents()).toEqual(['Valid']);
    // No patient has reviewed this doctor in the demo: the profile and its reviews say so.
    expect(await page.getByText('No ratings yet').first().isVisible()).toBe(true);

    await page.getByLabel('Message to the doctor (optional)').fill('I would like you to be my family doctor.');
    await screenshot(page, 'patient-doctors-detail-360');
    await page.getByRole('button', { name: 'Request as family doctor' }).tap();
    await expect.poll(() => page.getByText('Your request to have this doctor as your family doctor is waiting').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel request' }).isVisible()).toBe(true);
    const stored = await queryDatabase<{ id: string; status: string; relation: string; message: string }>(
      suite.server,
      `SELECT request.id, request.status, request.relation, request.message FROM care_requests request
         JOIN users doctor ON doctor.id = request.doctor_id
        WHERE doctor.email = 'thu.pham@demo.example' AND request.kind = 'PATIENT_REQUEST' AND request.status = 'WAITING'`,
    );
    expect(stored).toEqual([
      expect.objectContaining({ status: 'WAITING', relation: 'FAMILY', message: 'I would like you to be my family doctor.' }),
    ]);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);

    await page.getByRole('link', { name: 'Requests', exact: true }).tap();
    await page.waitForURL('**/app/doctors/requests');
    expect(await page.getByRole('button', { name: 'Sent', exact: true }).getAttribute('aria-pressed')).toBe('true');
    // Newest first: the request just sent heads the list.
    const sent = page.locator('.request-list > li').first();
    await expect.poll(() => sent.locator('.doctor-name').textContent()).toBe('Thu Pham');
    await expect.poll(() => sent.locator('.badge').textContent()).toBe('Waiting');
    expect(await sent.locator('.doctor-meta').textContent()).toMatch(/^Family doctor · /);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-doctors-requests-360');

    await sent.getByRole('button', { name: 'Cancel the request to Thu Pham' }).tap();
    await expect.poll(() => sent.locator('.badge').textContent()).toBe('Canceled');
    expect(await sent.getByRole('button').count()).toBe(0);
    const [row] = await queryDatabase<{ status: string }>(suite.server, 'SELECT status FROM care_requests WHERE id = $1', [
      stored[0]?.id,
    ]);
    expect(row?.status).toBe('CANCELED');
    await screenshot(page, 'patient-doctors-canceled-360');

    // The doctor's profile offers a new request again.
    await page.getByRole('link', { name: 'Thu Pham' }).tap();
    await expect.poll(() => page.getByRole('button', { name: 'Request as family doctor' }).isVisible()).toBe(true);

    // In Vietnamese, the console's specialty names come with the app's own strings; Canadian
    // English spells licence its way.
    await page.locator('header select').selectOption('vi');
    await expect.poll(() => page.getByRole('button', { name: 'Mời làm bác sĩ gia đình' }).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('list', { name: 'Chuyên khoa' }).getByRole('listitem').allTextContents())
      .toEqual(['Y học gia đình', 'Lão khoa']);
    await screenshot(page, 'patient-doctors-detail-vi-360');
    await page.locator('header select').selectOption('en-CA');
    await expect.poll(() => page.getByRole('heading', { name: 'Licences', level: 2 }).isVisible()).toBe(true);
    await page.locator('header select').selectOption('en');
  });

  it('rejects a doctor’s request with a reason, approves another and lists that doctor under My doctors', async () => {
    const [patient] = await queryDatabase<{ id: string; tenant_id: string }>(
      suite.server,
      `SELECT patient.id, patient.tenant_id FROM patients patient JOIN users account ON account.id = patient.user_id
        WHERE account.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('the demo patient is missing');
    // Two active doctors without an expired licence, not on the patient's care team nor asked yet.
    const doctors = await queryDatabase<{ id: string; name: string }>(
      suite.server,
      `SELECT doctor.id, concat_ws(' ', doctor.first_name, nullif(doctor.middle_name, ''), doctor.last_name) AS name
         FROM users doctor
        WHERE doctor.tenant_id = $1 AND doctor.role = 'DOCTOR' AND doctor.status = 'ACTIVE' AND doctor.deleted_at IS NULL
          AND (NOT EXISTS (SELECT 1 FROM doctor_licenses licence WHERE licence.doctor_id = doctor.id)
               OR EXISTS (SELECT 1 FROM doctor_licenses licence WHERE licence.doctor_id = doctor.id AND licence.expires_on > current_date))
          AND NOT EXISTS (SELECT 1 FROM patient_doctors link WHERE link.patient_id = $2 AND link.doctor_id = doctor.id)
          AND NOT EXISTS (SELECT 1 FROM care_requests request WHERE request.patient_id = $2 AND request.doctor_id = doctor.id AND request.status = 'WAITING')
        ORDER BY doctor.email LIMIT 2`,
      [patient.tenant_id, patient.id],
    );
    const [rejectedDoctor, approvedDoctor] = doctors;
    if (rejectedDoctor === undefined || approvedDoctor === undefined) throw new Error(`the demo tenant needs two more doctors: ${JSON.stringify(doctors)}`);
    for (const [index, doctor] of doctors.entries()) {
      await queryDatabase(
        suite.server,
        `INSERT INTO care_requests (tenant_id, id, kind, requester_id, recipient_id, patient_id, doctor_id, relation, message, created_at)
         SELECT $1, $2, 'DOCTOR_REQUEST', $3, account.id, $4, $3, 'SPECIALIST', 'I can follow your blood pressure.', now() - make_interval(mins => $5)
           FROM patients record JOIN users account ON account.id = record.user_id WHERE record.id = $4`,
        [patient.tenant_id, randomUUID(), doctor.id, patient.id, index],
      );
    }

    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    await page.goto('/app/doctors/requests');
    await page.getByRole('button', { name: 'Received', exact: true }).tap();
    const rejected = page.locator('.request-list > li').filter({ hasText: rejectedDoctor.name });
    await expect.poll(() => rejected.locator('.badge').textContent()).toBe('Waiting');
    await rejected.getByRole('button', { name: `Reject the request from ${rejectedDoctor.name}` }).tap();
    await rejected.getByRole('button', { name: 'Reject request' }).tap();
    expect(await rejected.getByText('Please give a reason.').isVisible()).toBe(true);
    await rejected.getByLabel('Reason for rejecting').fill('I already see a cardiologist.');
    await screenshot(page, 'patient-doctors-reject-360');
    await rejected.getByRole('button', { name: 'Reject request' }).tap();
    await expect.poll(() => rejected.locator('.badge').textContent()).toBe('Rejected');
    expect(await rejected.getByText('Reason: I already see a cardiologist.').isVisible()).toBe(true);

    const approved = page.locator('.request-list > li').filter({ hasText: approvedDoctor.name });
    await approved.getByRole('button', { name: `Approve the request from ${approvedDoctor.name}` }).tap();
    await expect.poll(() => approved.locator('.badge').textContent()).toBe('Approved');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-doctors-received-360');

    await page.getByRole('link', { name: 'My doctors', exact: true }).tap();
    await page.waitForURL('**/app/doctors/mine');
    const entry = page.locator('.doctor-list li').filter({ hasText: approvedDoctor.name });
    await expect.poll(() => entry.isVisible()).toBe(true);
    expect(await entry.getByText('Specialist', { exact: false }).first().isVisible()).toBe(true);
    const links = await queryDatabase<{ relation: string }>(
      suite.server,
      'SELECT relation FROM patient_doctors WHERE patient_id = $1 AND doctor_id = $2',
      [patient.id, approvedDoctor.id],
    );
    expect(links).toEqual([{ relation: 'SPECIALIST' }]);
    await screenshot(page, 'patient-doctors-mine-360');
  });
});
