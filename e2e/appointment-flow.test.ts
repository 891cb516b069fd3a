import { describe, expect, it } from 'vitest';
import { ConsoleDriver, dismissToasts, screenshot } from './support/console.js';
import { logInPatient, usePhoneSuite } from './support/phone.js';
import { poll } from './support/suite.js';

/**
 * An appointment from end to end (spec §2 doctor schedule, approval, appointments, patient app; §4
 * "status changes notify the assigned parties"): the demo doctor asks for a Sunday afternoon two
 * weeks ahead, the main admin approves it and the doctor is e-mailed; the demo patient books its
 * first slot in the app and the doctor is e-mailed the booking; the doctor starts and completes the
 * appointment with a diagnosis in the console and the patient is e-mailed; the app shows it
 * completed with the diagnosis and advice.
 */

const suite = usePhoneSuite({ withMail: true });
const ZONE = 'Asia/Ho_Chi_Minh';
const DAY_MS = 86_400_000;

function todayInZone(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}
const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** yyyy-MM-dd → dd/MM/yyyy, as the console and the e-mails show dates. */
const shown = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** The Sunday of the week after next, in the zone: no demo schedule holds it. */
function sundayInTwoWeeks(): string {
  const today = todayInZone();
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay() || 7;
  return addDays(today, 14 + 7 - weekday);
}

describe('an appointment from request to completion', () => {
  it('schedule approved, slot booked in the app, completed with a diagnosis; each step e-mailed', async () => {
    const day = sundayInTwoWeeks();
    const driver = new ConsoleDriver(suite.browser, suite.server.baseUrl);
    try {
      // The doctor asks for Sunday 14:00–16:00.
      const doctor = await driver.openPage();
      await driver.signIn(doctor, 'doctor@demo.example');
      await doctor.waitForURL('**/doctor');
      await doctor.getByRole('navigation').getByRole('link', { name: 'My schedule' }).click();
      await doctor.waitForURL('**/doctor/my-schedule');
      await doctor.getByRole('button', { name: 'Request working hours' }).click();
      const form = doctor.getByRole('form', { name: 'Working hours request' });
      await form.getByText('A single day', { exact: true }).click();
      await form.getByLabel(/^Day/).fill(shown(day));
      await form.getByLabel(/^Start time/).fill('14:00');
      await form.getByLabel(/^End time/).fill('16:00');
      await form.getByRole('button', { name: 'Send the request' }).click();
      await poll(() => doctor.getByText('Your request was sent for approval').isVisible()).toBe(true);
      await dismissToasts(doctor);

      // The main admin approves it; the doctor hears of it.
      const admin = await driver.openPage();
      await driver.signIn(admin, 'main-admin@demo.example');
      await admin.waitForURL('**/smadmin');
      await admin.getByRole('navigation').getByRole('link', { name: 'Schedule approval' }).click();
      const request = admin
        .getByTestId('schedule-approval-table')
        .getByTestId('schedule-row')
        .filter({ hasText: shown(day) })
        .filter({ hasText: '14:00–16:00' });
      await poll(() => request.count()).toBe(1);
      await request.getByRole('checkbox').check();
      await admin.getByRole('button', { name: 'Approve selected' }).click();
      await poll(() => admin.getByText('1 approved').isVisible()).toBe(true);
      const approved = await suite.mail.waitFor(
        (mail) => mail.to.includes('doctor@demo.example') && mail.text.includes(`${shown(day)} `) && mail.text.includes('14:00–16:00'),
      );
      expect(approved.subject).toMatch(/approved|được duyệt/);

      // The patient books the first slot of that Sunday in the app, online.
      const patient = await suite.openPhone({ timezoneId: ZONE });
      await logInPatient(patient);
      await patient.goto('/app/doctors');
      await patient.getByRole('link', { name: /Linh Nguyen/ }).first().click();
      const card = patient.locator('section.book-card');
      await card.getByLabel('Day').fill(day);
      const slots = card.getByTestId('slot');
      await poll(() => slots.count()).toBe(4);
      expect(await slots.first().textContent()).toBe('2:00 PM');
      await slots.first().tap();
      await card.getByLabel('Reason for the visit').fill('Headaches in the afternoon');
      await card.getByLabel('Online video call').check();
      await card.getByRole('button', { name: 'Book', exact: true }).tap();
      await patient.waitForURL(/\/app\/appointments\/[0-9a-f-]{36}$/);
      const badge = patient.getByTestId('appointment-detail').getByTestId('appointment-state');
      await poll(() => badge.textContent()).toBe('Booked');
      const booked = await suite.mail.waitFor(
        (mail) => mail.to.includes('doctor@demo.example') && mail.text.includes('Hung Pham') && mail.text.includes(shown(day)) && mail.text.includes('14:00'),
      );
      expect(booked.text).toContain('Headaches in the afternoon');
      // The patient booked it: no e-mail tells it what it just did.
      expect(suite.mail.messages.filter((mail) => mail.to.includes('patient@demo.example') && mail.text.includes('Headaches'))).toEqual([]);

      // The doctor finds it, starts and completes it with a diagnosis; the patient hears of it.
      await doctor.getByRole('navigation').getByRole('link', { name: 'Appointments' }).click();
      await doctor.getByText('All upcoming', { exact: true }).click();
      const row = doctor
        .getByTestId('appointments-table')
        .getByTestId('appointment-row')
        .filter({ hasText: 'BNCS10001' })
        .filter({ hasText: `${shown(day)} 14:00` });
      await poll(() => row.count()).toBe(1);
      await row.getByRole('link', { name: 'View' }).click();
      await doctor.getByRole('button', { name: 'Start examination' }).click();
      await poll(() => doctor.getByTestId('appointment-status').first().textContent()).toBe('Examining');
      await dismissToasts(doctor);
      await doctor.getByRole('button', { name: 'Complete' }).click();
      const complete = doctor.getByRole('dialog', { name: 'Complete the appointment' });
      await complete.getByLabel(/^Diagnosis/).fill('Tension-type headache');
      await complete.getByLabel(/^Advice/).fill('Drink more water, rest your eyes every hour');
      await complete.getByRole('button', { name: 'Complete' }).click();
      await poll(() => doctor.getByTestId('appointment-status').first().textContent()).toBe('Completed');
      const completed = await suite.mail.waitFor(
        (mail) => mail.to.includes('patient@demo.example') && mail.text.includes('Linh Nguyen') && mail.text.includes(shown(day)),
      );
      // The e-mail says where the diagnosis is, not what it is.
      expect(completed.text).not.toContain('Tension-type headache');

      // The app shows it completed with the outcome (live, or on the next look).
      await poll(async () => {
        if ((await badge.textContent()) !== 'Completed') await patient.reload();
        return badge.textContent();
      }).toBe('Completed');
      await poll(() => patient.getByText('Tension-type headache').isVisible()).toBe(true);
      expect(await patient.getByText('Drink more water, rest your eyes every hour').isVisible()).toBe(true);
      await screenshot(patient, 'appointment-flow-completed-app');
    } finally {
      await driver.closeAll();
    }
  });
});
