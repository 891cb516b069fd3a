import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Appointments in the patient app on a small phone (360 px, touch; spec §2 patient app: book an
 * appointment, appointments and their states): the demo patient opens the demo doctor's page
 * (weekday mornings approved in the demo seed, demo-schedules.ts), picks the next weekday, is told
 * the reason is needed, books a free time as an online video call and lands on the new
 * appointment, booked, with the call's link waiting for the room to open; finds it under Upcoming
 * from the home page, cancels it with a reason (an empty one refused) and finds it cancelled under
 * Past. The list once more in Vietnamese. Then an online appointment the health center booked,
 * starting in a few minutes, links to its video call, and a completed one shows its diagnosis and
 * advice with nothing left to do.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;
/** The demo tenant's zone (its staff's and the doctor's schedules'); the phone keeps the same time. */
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;
const REASON = 'Blood pressure follow-up';
const CANCEL_REASON = 'I have to travel for work that day.';

function todayInZone(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The next Monday-to-Friday day after today in the zone: the doctor's mornings are all still to come. */
function nextWeekday(): string {
  let day = addDays(todayInZone(), 1);
  while ([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay())) day = addDays(day, 1);
  return day;
}

const badge = (page: Page) => page.getByTestId('appointment-detail').getByTestId('appointment-state');

describe('patient app appointments', () => {
  it('books a free time of a doctor online, lists it under Upcoming, cancels it with a reason and finds it under Past', async () => {
    const [doctor] = await queryDatabase<{ id: string; name: string }>(
      suite.server,
      `SELECT id, concat_ws(' ', first_name, last_name) AS name FROM users WHERE email = 'doctor@demo.example' AND role = 'DOCTOR'`,
    );
    if (doctor === undefined) throw new Error('the demo doctor is missing');
    const storedAppointments = () =>
      queryDatabase<{ id: string; status: string; place: string; reason: string; note: string | null; cancel_reason: string | null }>(
        suite.server,
        `SELECT appointment.id, appointment.status, appointment.place, appointment.reason, appointment.note, appointment.cancel_reason
           FROM appointments appointment JOIN patients patient ON patient.id = appointment.patient_id
           JOIN users account ON account.id = patient.user_id
          WHERE account.email = 'patient@demo.example' ORDER BY appointment.created_at`,
      );
    // A retry starts again from no appointment of the demo patient.
    await queryDatabase(
      suite.server,
      `DELETE FROM appointments WHERE patient_id = (SELECT patient.id FROM patients patient
         JOIN users account ON account.id = patient.user_id WHERE account.email = 'patient@demo.example')`,
    );

    const page = await suite.openPhone({ viewport: SMALL_PHONE, timezoneId: ZONE });
    await logInPatient(page);
    await page.goto(`/app/doctors/${doctor.id}`);
    await expect.poll(() => page.getByRole('heading', { name: doctor.name, level: 1 }).isVisible()).toBe(true);
    const card = page.locator('section.book-card');
    await expect.poll(() => card.getByRole('heading', { name: 'Book an appointment' }).isVisible()).toBe(true);
    // Today by default, and no day before it.
    const dayField = card.getByLabel('Day');
    expect(await dayField.getAttribute('min')).toBe(todayInZone());
    expect(await dayField.inputValue()).toBe(todayInZone());

    // The next weekday morning: its free half hours, as times of the app's language.
    await dayField.fill(nextWeekday());
    const slots = card.getByTestId('slot');
    await expect.poll(() => slots.count()).toBeGreaterThan(1);
    expect(await slots.first().textContent()).toBe('8:00 AM');
    expect(await slots.first().getAttribute('aria-label')).toBe('8:00 AM to 8:30 AM');
    await slots.nth(1).tap();
    await expect.poll(() => slots.nth(1).getAttribute('aria-pressed')).toBe('true');

    // The reason is required: said under it, nothing booked.
    await card.getByRole('button', { name: 'Book', exact: true }).tap();
    await expect.poll(() => card.getByText('Please give the reason for your visit.').isVisible()).toBe(true);
    expect(await card.getByLabel('Reason for the visit').getAttribute('aria-invalid')).toBe('true');
    expect(await storedAppointments()).toEqual([]);

    await card.getByLabel('Reason for the visit').fill(REASON);
    await card.getByLabel('Note for the doctor (optional)').fill('Readings are higher in the morning.');
    await card.getByLabel('Online video call').check();
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'patient-appointments-book-360');
    await card.getByRole('button', { name: 'Book', exact: true }).tap();

    // The new appointment opens: booked by the patient, online, the call not open yet.
    await page.waitForURL(/\/app\/appointments\/[0-9a-f-]{36}$/);
    await expect.poll(() => badge(page).textContent()).toBe('Booked');
    const detail = page.getByTestId('appointment-detail');
    expect(await detail.getByTestId('appointment-doctor').locator('dd').textContent()).toBe(doctor.name);
    expect(await detail.getByTestId('appointment-place').locator('dd').textContent()).toBe('Online video call');
    expect(await detail.getByTestId('appointment-reason').locator('dd').textContent()).toBe(REASON);
    expect(await detail.getByTestId('appointment-when').locator('dd').textContent()).toMatch(/, 2\d{3}8:30 AM – 9:00 AM$/);
    const join = page.getByRole('button', { name: 'Join video call' });
    expect(await join.isDisabled()).toBe(true);
    expect(await page.getByText('The call opens 10 minutes before the start, at 8:20 AM.').isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Join video call' }).count()).toBe(0);
    const [stored] = await storedAppointments();
    expect(stored).toEqual(
      expect.objectContaining({ status: 'UPCOMING', place: 'ONLINE', reason: REASON, note: 'Readings are higher in the morning.' }),
    );
    expect(page.url()).toMatch(new RegExp(`/app/appointments/${stored?.id ?? ''}$`));
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-appointments-detail-360');

    // From the home page: the appointment is under Upcoming.
    await page.goto('/app/');
    await page.getByRole('link', { name: 'Appointments', exact: true }).tap();
    await page.waitForURL('**/app/appointments');
    expect(await page.getByRole('button', { name: 'Upcoming', exact: true }).getAttribute('aria-pressed')).toBe('true');
    const items = page.getByTestId('appointment-item');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().getByTestId('appointment-state').textContent()).toBe('Booked');
    expect(await items.first().textContent()).toContain(`With ${doctor.name}`);
    expect(await items.first().textContent()).toContain('Online video call');
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-appointments-upcoming-360');
    await page.getByRole('button', { name: 'Past', exact: true }).tap();
    await expect.poll(() => page.getByText('You have no past appointment.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Upcoming', exact: true }).tap();

    // Cancelling needs a reason; then the appointment is cancelled with it.
    await items.first().tap();
    await page.waitForURL(/\/app\/appointments\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Cancel appointment' }).tap();
    await page.getByRole('button', { name: 'Cancel the appointment' }).tap();
    await expect.poll(() => page.getByText('Please give a reason for cancelling.').isVisible()).toBe(true);
    expect((await storedAppointments())[0]?.status).toBe('UPCOMING');
    await page.getByLabel('Reason for cancelling').fill(CANCEL_REASON);
    await screenshot(page, 'patient-appointments-cancel-360');
    await page.getByRole('button', { name: 'Cancel the appointment' }).tap();
    await expect.poll(() => badge(page).textContent()).toBe('Canceled');
    await expect.poll(() => page.getByText('The appointment is canceled. Your doctor has been told.').isVisible()).toBe(true);
    expect(await page.getByTestId('appointment-cancel-reason').locator('dd').textContent()).toBe(CANCEL_REASON);
    expect(await page.getByRole('button', { name: 'Cancel appointment' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Video call' }).count()).toBe(0);
    expect(await storedAppointments()).toEqual([
      expect.objectContaining({ status: 'CANCELED', cancel_reason: CANCEL_REASON }),
    ]);
    await screenshot(page, 'patient-appointments-canceled-360');

    // Back to the list: under Past now, with its badge; Upcoming is empty.
    await page.getByRole('link', { name: 'Back to the appointments' }).tap();
    await page.waitForURL('**/app/appointments?when=past');
    expect(await page.getByRole('button', { name: 'Past', exact: true }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => items.count()).toBe(1);
    await expect.poll(() => items.first().getByTestId('appointment-state').textContent()).toBe('Canceled');
    await screenshot(page, 'patient-appointments-past-360');
    await page.getByRole('button', { name: 'Upcoming', exact: true }).tap();
    await expect.poll(() => page.getByText('You have no upcoming appointment.').isVisible()).toBe(true);

    // In Vietnamese and in Canadian English.
    await page.getByRole('button', { name: 'Past', exact: true }).tap();
    await page.locator('header select').selectOption('vi');
    await expect.poll(() => page.getByRole('heading', { name: 'Lịch hẹn', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => items.first().getByTestId('appointment-state').textContent()).toBe('Đã hủy');
    expect(await items.first().textContent()).toContain('Gọi video trực tuyến');
    await screenshot(page, 'patient-appointments-past-vi-360');
    await page.locator('header select').selectOption('en-CA');
    await expect.poll(() => items.first().getByTestId('appointment-state').textContent()).toBe('Cancelled');
    await page.locator('header select').selectOption('en');
  });

  it('links an invited online appointment to its open video call and shows a completed one’s result', async () => {
    const [setup] = await queryDatabase<{ tenant_id: string; patient_id: string; doctor_id: string; schedule_id: string; operator_id: string }>(
      suite.server,
      `SELECT patient.tenant_id, patient.id AS patient_id, doctor.id AS doctor_id, schedule.id AS schedule_id, operator.id AS operator_id
         FROM patients patient JOIN users account ON account.id = patient.user_id
         JOIN users doctor ON doctor.email = 'doctor@demo.example' AND doctor.role = 'DOCTOR'
         JOIN doctor_schedules schedule ON schedule.doctor_id = doctor.id AND schedule.status = 'APPROVED'
         JOIN users operator ON operator.email = 'operator@demo.example'
        WHERE account.email = 'patient@demo.example' LIMIT 1`,
    );
    if (setup === undefined) throw new Error('the demo patient, doctor, schedule or operator is missing');
    await queryDatabase(suite.server, 'DELETE FROM appointments WHERE patient_id = $1', [setup.patient_id]);
    // Booked by the operator (invited): online, starting in 5 minutes; and one completed yesterday.
    const [online] = await queryDatabase<{ id: string }>(
      suite.server,
      `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, created_by, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, $3, $4, now() + interval '5 minutes', now() + interval '35 minutes', 'Video check-up', 'ONLINE', 'UPCOMING', $5, now(), now())
       RETURNING id`,
      [setup.tenant_id, setup.patient_id, setup.doctor_id, setup.schedule_id, setup.operator_id],
    );
    const [completed] = await queryDatabase<{ id: string }>(
      suite.server,
      `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, diagnosis, advice, created_by, created_at, updated_at)
       VALUES ($1, gen_random_uuid(), $2, $3, $4, now() - interval '1 day', now() - interval '1 day' + interval '30 minutes', 'Dizziness', 'CLINIC', 'COMPLETED',
               'Mild hypertension', 'Less salt, a walk every day, measure twice a day.', $5, now() - interval '2 days', now() - interval '1 day')
       RETURNING id`,
      [setup.tenant_id, setup.patient_id, setup.doctor_id, setup.schedule_id, setup.operator_id],
    );
    if (online === undefined || completed === undefined) throw new Error('the appointments were not stored');

    const page = await suite.openPhone({ viewport: SMALL_PHONE, timezoneId: ZONE });
    await logInPatient(page);
    await page.goto('/app/appointments');
    const items = page.getByTestId('appointment-item');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().getByTestId('appointment-state').textContent()).toBe('Invited');
    await items.first().tap();
    await page.waitForURL(`**/app/appointments/${online.id}`);
    await expect.poll(() => badge(page).textContent()).toBe('Invited');
    expect(await page.getByText('Your health center booked this appointment for you.').isVisible()).toBe(true);
    const join = page.getByRole('link', { name: 'Join video call' });
    expect(await join.getAttribute('href')).toBe(`/app/appointments/${online.id}/video`);
    expect(await page.getByRole('button', { name: 'Cancel appointment' }).isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-appointments-video-open-360');

    await page.goto('/app/appointments?when=past');
    await expect.poll(() => items.count()).toBe(1);
    await items.first().tap();
    await page.waitForURL(`**/app/appointments/${completed.id}`);
    await expect.poll(() => badge(page).textContent()).toBe('Completed');
    expect(await page.getByTestId('appointment-diagnosis').locator('dd').textContent()).toBe('Mild hypertension');
    expect(await page.getByTestId('appointment-advice').locator('dd').textContent()).toBe(
      'Less salt, a walk every day, measure twice a day.',
    );
    expect(await page.getByRole('button', { name: 'Cancel appointment' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Video call' }).count()).toBe(0);
    await screenshot(page, 'patient-appointments-completed-360');
  });
});
