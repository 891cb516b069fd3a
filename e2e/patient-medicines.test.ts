import { describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { ConsoleDriver } from './support/console.js';
import { logInPatient, pageWidth, queryDatabase, screenshot, usePhoneSuite } from './support/phone.js';

/**
 * Medicines in the patient app on a small phone (360 px, touch): a doctor of the demo patient's
 * center writes a prescription whose morning dose falls a few minutes from now in the patient's
 * time zone, plus a medicine taken on demand; the patient opens Medicines, finds the dose waiting
 * at its time, marks it taken, and opens the prescription; the doctor's usage history in the
 * console counts it.
 */

const suite = usePhoneSuite();
const SMALL_PHONE = { width: 360, height: 780 } as const;

/** "HH:mm" and "yyyy-MM-dd" of an instant in a zone. */
function wallClock(at: Date, timeZone: string): { time: string; day: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    time: `${parts.hour ?? ''}:${parts.minute ?? ''}`,
    day: `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}`,
  };
}

describe('patient app medicines', () => {
  it('shows the dose at its time, marks it taken, and the doctor’s usage history counts it', async () => {
    const [patient] = await queryDatabase<{ id: string; zone: string; doctor: string }>(
      suite.server,
      `SELECT p.id, u.time_zone AS zone,
              (SELECT d.email FROM users d WHERE d.tenant_id = p.tenant_id AND d.role = 'DOCTOR' AND d.status = 'ACTIVE'
                  AND d.health_center_id = p.health_center_id AND d.email IS NOT NULL ORDER BY d.email LIMIT 1) AS doctor
         FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    // A retry starts from no prescription of an earlier run.
    await queryDatabase(
      suite.server,
      `DELETE FROM prescriptions WHERE patient_id = $1 AND name = 'Blood sugar plan'`,
      [patient.id],
    );
    const due = wallClock(new Date(Date.now() + 3 * 60_000), patient.zone);
    const doctor = await sessionCookie(suite.server.baseUrl, patient.doctor);
    const [doctorRow] = await queryDatabase<{ id: string }>(
      suite.server,
      'SELECT id FROM users WHERE email = $1',
      [patient.doctor],
    );
    const created = await callWithCookie<{ id: string }>(
      suite.server.baseUrl,
      doctor,
      'POST',
      `/health/patients/${patient.id}/prescriptions`,
      {
        name: 'Blood sugar plan',
        rxNumber: 'RX-E2E',
        doctorInChargeId: doctorRow?.id,
        noteForPatient: 'Take it after breakfast.',
        startDate: due.day,
        endDate: due.day,
        refills: 0,
        medicines: [
          {
            name: 'Gliclazide',
            strength: '30 mg',
            dose: 1,
            doseUnit: 'PILL',
            route: 'ORAL',
            form: 'TABLET',
            frequencyCycle: 'DAY',
            timesOfDay: ['MORNING'],
            meal: 'AFTER_MEAL',
            mode: 'ON_SCHEDULE',
            schedule: {
              times: [{ label: 'After breakfast', time: due.time }],
              repeat: { kind: 'WEEKDAYS', weekdays: [1, 2, 3, 4, 5, 6, 7] },
              startDate: due.day,
              endDate: null,
            },
          },
          {
            name: 'Ibuprofen',
            strength: '200 mg',
            dose: 0.5,
            doseUnit: 'PILL',
            route: 'ORAL',
            form: 'TABLET',
            frequencyCycle: 'DAY',
            timesOfDay: [],
            meal: 'ANYTIME',
            mode: 'ON_DEMAND',
            schedule: null,
          },
        ],
      },
    );

    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    await page.getByRole('link', { name: 'Medicines', exact: true }).tap();
    await page.waitForURL('**/app/medicines');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Medicines', level: 1 }).isVisible())
      .toBe(true);
    // The dose falls on the patient's next day when "a few minutes from now" crosses midnight there.
    const deviceDay = wallClock(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone).day;
    if (due.day > deviceDay) await page.getByRole('button', { name: 'Next day' }).tap();
    const dose = page.locator('.dose', { hasText: 'Gliclazide' });
    await expect.poll(() => dose.locator('.dose-time').textContent()).toBe(due.time);
    expect(await dose.locator('.badge').textContent()).toBe('Waiting');
    expect(await dose.getByText('1 pill · After a meal · After breakfast').isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-medicines-today-360');

    await dose.getByRole('button', { name: 'Taken' }).tap();
    await expect.poll(() => dose.locator('.badge').textContent()).toBe('Taken');
    expect(await dose.getByRole('button', { name: 'Taken' }).count()).toBe(0);
    const [stored] = await queryDatabase<{ state: string }>(
      suite.server,
      `SELECT i.state FROM medication_intakes i JOIN prescription_medicines m ON m.id = i.medicine_id WHERE m.prescription_id = $1`,
      [created.id],
    );
    expect(stored?.state).toBe('TAKEN');
    await screenshot(page, 'patient-medicines-taken-360');

    // The prescription, with both medicines: the on-demand one has no reminder.
    await page.getByRole('link', { name: 'Prescriptions', exact: true }).tap();
    await page.getByRole('link', { name: /Blood sugar plan/ }).tap();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Blood sugar plan', level: 1 }).isVisible())
      .toBe(true);
    expect(await page.getByText('Take it after breakfast.').isVisible()).toBe(true);
    expect(await page.getByText(`Every day at ${due.time} (After breakfast)`).isVisible()).toBe(true);
    expect(await page.getByText('When needed (no reminder)').isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-medicines-prescription-360');

    const usage = await callWithCookie<{ total: { taken: number; adherencePercent: number | null } }>(
      suite.server.baseUrl,
      doctor,
      'GET',
      `/health/patients/${patient.id}/prescriptions/${created.id}/usage`,
    );
    expect(usage.total).toMatchObject({ taken: 1, adherencePercent: 100 });

    // The doctor's console shows the same adherence in the prescription's usage history.
    const consoleDriver = new ConsoleDriver(suite.browser, suite.server.baseUrl);
    const desk = await consoleDriver.openPage();
    await consoleDriver.signIn(desk, patient.doctor);
    await desk.waitForURL('**/doctor');
    await desk.goto(`/doctor/patients/${patient.id}`);
    await desk.getByRole('tab', { name: 'Prescriptions' }).click();
    await desk.getByRole('button', { name: 'Open the prescription Blood sugar plan' }).first().click();
    const history = desk.getByTestId('usage-history');
    await expect.poll(() => history.getByTestId('adherence').first().textContent()).toBe('100% taken');
    await screenshot(desk, 'patient-medicines-console-usage');
    await consoleDriver.closeAll();
  });

  it('adds an event to My events (a time and an icon required), then marks it done', async () => {
    await queryDatabase(suite.server, `DELETE FROM patient_events WHERE label = 'Eye check-up'`);
    const page = await suite.openPhone({ viewport: SMALL_PHONE });
    await logInPatient(page);
    await page.getByRole('link', { name: 'Medicines', exact: true }).tap();
    await page.getByRole('link', { name: 'My events', exact: true }).tap();
    await page.waitForURL('**/app/events');
    await page.getByRole('button', { name: 'Add an event' }).tap();
    await page.getByLabel('What').fill('Eye check-up');
    await page.getByRole('button', { name: 'Save event' }).tap();
    await expect.poll(() => page.getByText('Choose an icon', { exact: true }).last().isVisible()).toBe(true);
    await page.getByLabel('Icon').selectOption('APPOINTMENT');
    await page.getByLabel('Where (optional)').fill('Eye hospital, room 3');
    await screenshot(page, 'patient-events-form-360');
    await page.getByRole('button', { name: 'Save event' }).tap();
    const item = page.locator('.dose', { hasText: 'Eye check-up' });
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Planned');
    expect(await item.getByText('Appointment · Eye hospital, room 3').isVisible()).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(SMALL_PHONE.width);
    await screenshot(page, 'patient-events-list-360');
    await item.getByRole('button', { name: 'Done' }).tap();
    await expect.poll(() => item.locator('.badge').textContent()).toBe('Done');
    const [stored] = await queryDatabase<{ status: string; icon: string }>(
      suite.server,
      `SELECT status, icon FROM patient_events WHERE label = 'Eye check-up'`,
    );
    expect(stored).toEqual({ status: 'DONE', icon: 'APPOINTMENT' });
  });
});
