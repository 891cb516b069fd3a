import { describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { screenshot } from './support/console.js';
import { queryDatabase } from './support/phone.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * Asking to delete working hours that still hold appointments (spec §4, §8: a schedule with
 * appointments cannot be deleted; the screen offers to cancel them first): the demo doctor's
 * approved weekday mornings hold an appointment booked by the operator; asking to delete them is
 * refused with the offer to cancel it, which needs a reason; with one, the appointment is
 * cancelled, its patient e-mailed with the reason, and the deletion request is sent.
 */

const suite = useConsoleSuite({ withMail: true });
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;

function nextWeekday(): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
  let day = today;
  do day = new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  while ([0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay()));
  return day;
}

describe('deleting working hours with appointments', () => {
  it('offers to cancel the appointments with a reason, tells the patient, then sends the request', async () => {
    const [ids] = await queryDatabase<{ doctor_id: string; patient_id: string }>(
      suite.server,
      `SELECT d.id AS doctor_id, p.id AS patient_id FROM users d
         JOIN patients p ON p.tenant_id = d.tenant_id
         JOIN users pu ON pu.id = p.user_id AND pu.email = 'patient@demo.example'
        WHERE d.email = 'doctor@demo.example'`,
    );
    if (ids === undefined) throw new Error('demo doctor or patient missing');
    // The operator books the doctor's first free slot of the next weekday morning for the demo patient.
    const cookie = await sessionCookie(suite.server.baseUrl, 'operator@demo.example');
    const slots = await callWithCookie<{ startAt: string; free: boolean }[]>(
      suite.server.baseUrl,
      cookie,
      'GET',
      `/account/doctors/${ids.doctor_id}/slots?date=${nextWeekday()}`,
    );
    const slot = slots.find((candidate) => candidate.free);
    if (slot === undefined) throw new Error('no free slot');
    await callWithCookie(suite.server.baseUrl, cookie, 'POST', '/account/appointments', {
      patientId: ids.patient_id,
      doctorId: ids.doctor_id,
      startAt: slot.startAt,
      reason: 'Blood pressure review',
      place: 'CLINIC',
    });

    const doctor = await suite.signIn('doctor@demo.example', 'doctor');
    await doctor.getByRole('navigation').getByRole('link', { name: 'My schedule' }).click();
    await doctor.waitForURL('**/doctor/my-schedule');
    const row = doctor.getByTestId('my-schedules-table').getByTestId('schedule-row').filter({ hasText: '08:00–11:30' });
    await poll(() => row.count()).toBe(1);
    await row.getByRole('button', { name: 'Ask to delete' }).click();
    const dialog = doctor.getByRole('dialog', { name: 'Ask to delete these working hours?' });
    await dialog.getByRole('button', { name: 'Send the request' }).click();
    const offer = dialog.getByTestId('has-appointments');
    await poll(() => offer.isVisible()).toBe(true);
    expect(await offer.textContent()).toContain('Appointments are still to come in these hours');

    // A reason is needed to cancel them.
    await offer.getByRole('button', { name: 'Cancel the appointments and send the request' }).click();
    await poll(() => offer.getByText('This field is required').isVisible()).toBe(true);
    await offer.getByLabel(/^Reason for cancelling/).fill('The clinic is closed for renovation that week');
    await screenshot(doctor, 'schedule-deletion-cancel-first');
    await offer.getByRole('button', { name: 'Cancel the appointments and send the request' }).click();
    await poll(() => doctor.getByText('The deletion request was sent').isVisible()).toBe(true);
    await poll(() => row.textContent()).toContain('Deletion requested');

    const told = await suite.mail.waitFor(
      (mail) => mail.to.includes('patient@demo.example') && mail.text.includes('The clinic is closed for renovation that week'),
    );
    expect(told.text).toContain('Linh Nguyen');
    const [stored] = await queryDatabase<{ status: string; cancel_reason: string }>(
      suite.server,
      `SELECT status, cancel_reason FROM appointments WHERE patient_id = $1 AND starts_at = $2`,
      [ids.patient_id, slot.startAt],
    );
    expect(stored).toEqual({ status: 'CANCELED', cancel_reason: 'The clinic is closed for renovation that week' });
  });
});
