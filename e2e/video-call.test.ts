import type { Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { callWithCookie, sessionCookie } from './support/api.js';
import { ConsoleDriver, screenshot } from './support/console.js';
import { logInPatient, queryDatabase, usePhoneSuite } from './support/phone.js';
import { poll } from './support/suite.js';

/**
 * The video room of an online appointment (spec §2 video meeting room), in two browsers with
 * Chromium's fake camera and microphone: the demo doctor joins from the console and waits, the demo
 * patient joins from the app on a phone, and each receives the other's video (frames decoded, as the
 * connection's getStats counts them, and a picture in the video element); the doctor finds the
 * appointment among today's on its home, and sees the
 * patient's latest vitals beside the call. The patient hangs up and the call ends for both. A third
 * user, the tenant's admin, is refused the room.
 */

const suite = usePhoneSuite({
  browserArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
});

/** An online appointment of the demo patient with the demo doctor starting in 5 minutes: its room is open. */
async function onlineAppointment(): Promise<{ id: string; patientId: string }> {
  const [row] = await queryDatabase<{ id: string; patient_id: string }>(
    suite.server,
    `INSERT INTO appointments (tenant_id, id, patient_id, doctor_id, schedule_id, starts_at, ends_at, reason, place, status, created_by, created_at, updated_at)
     SELECT p.tenant_id, gen_random_uuid(), p.id, d.id, s.id, now() + interval '5 minutes', now() + interval '35 minutes',
            'Video review of the blood pressure', 'ONLINE', 'UPCOMING', d.id, now(), now()
       FROM patients p
       JOIN users pu ON pu.id = p.user_id AND pu.email = 'patient@demo.example'
       JOIN users d ON d.tenant_id = p.tenant_id AND d.email = 'doctor@demo.example'
       JOIN doctor_schedules s ON s.doctor_id = d.id AND s.status = 'APPROVED'
      LIMIT 1
     RETURNING id, patient_id`,
  );
  if (row === undefined) throw new Error('no demo doctor schedule to hold the appointment');
  return { id: row.id, patientId: row.patient_id };
}

/** Frames of the other side's video decoded so far, as the page shows them (getStats). */
const framesOf = async (page: Page) =>
  Number((await page.getByTestId('call-stats').getAttribute('data-frames').catch(() => '0')) ?? '0');

/** The other side's picture in the video element: its size once frames arrive. */
const remoteWidthOf = (page: Page) =>
  page.getByTestId('remote-video').evaluate((video: HTMLVideoElement) => video.videoWidth);

describe('the video room', () => {
  it('connects the doctor and the patient with video both ways, shows the vitals, and ends for both on hang up', async () => {
    const { id: appointmentId, patientId } = await onlineAppointment();
    // A heart rate just taken, for the vitals beside the call (sent before the doctor signs in in
    // the browser: a second sign-in would end this session).
    const cookie = await sessionCookie(suite.server.baseUrl, 'doctor@demo.example');
    await callWithCookie(suite.server.baseUrl, cookie, 'POST', '/collector/readings', {
      batchId: randomUUID(),
      patientId,
      readings: [{ measure: 'HEART_RATE', value: 74, measuredAt: new Date(Date.now() - 60_000).toISOString() }],
    });
    const driver = new ConsoleDriver(suite.browser, suite.server.baseUrl);
    try {
      const doctor = await driver.openPage();
      await driver.signIn(doctor, 'doctor@demo.example');
      await doctor.waitForURL('**/doctor');
      // The doctor's home lists today's appointments: this one, online, opens its detail.
      const today = doctor.getByTestId('today-appointments');
      await poll(() => today.getByTestId('today-appointment').count()).toBeGreaterThan(0);
      await screenshot(doctor, 'video-call-doctor-home');
      await today.getByRole('link', { name: 'Hung Pham' }).first().click();
      await doctor.waitForURL(`**/doctor/appointments/${appointmentId}`);
      await doctor.getByRole('link', { name: 'Join video call' }).click();
      await doctor.waitForURL(`**/doctor/appointments/${appointmentId}/video`);
      await doctor.getByRole('button', { name: 'Join the call' }).click();
      await poll(() => doctor.getByTestId('call-state').getAttribute('data-state')).toBe('waiting');
      await poll(() => doctor.getByTestId('call-vitals').textContent()).toContain('Heart rate');

      const patient = await suite.openPhone();
      await logInPatient(patient);
      await patient.goto(`/app/appointments/${appointmentId}/video`);
      await patient.getByRole('button', { name: 'Join the call' }).click();

      await poll(() => doctor.getByTestId('call-state').getAttribute('data-state')).toBe('connected');
      await poll(() => patient.getByTestId('call-state').getAttribute('data-state')).toBe('connected');
      // Each side decodes the other's frames (stats every 2 s), and shows the picture.
      await poll(() => framesOf(doctor)).toBeGreaterThan(10);
      await poll(() => framesOf(patient)).toBeGreaterThan(10);
      expect(await remoteWidthOf(doctor)).toBeGreaterThan(0);
      expect(await remoteWidthOf(patient)).toBeGreaterThan(0);
      await screenshot(doctor, 'video-call-doctor');
      await screenshot(patient, 'video-call-patient');

      // Muting stops the sound only: the call goes on.
      await patient.getByRole('button', { name: 'Mute' }).click();
      await poll(() => patient.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed')).toBe('true');

      await patient.getByRole('button', { name: 'Hang up' }).click();
      await poll(() => patient.getByTestId('call-ended').isVisible()).toBe(true);
      await poll(() => doctor.getByTestId('call-state').getAttribute('data-state')).toBe('ended');

      // A third user of the tenant, whatever its permissions, is not let in.
      const admin = await driver.openPage();
      await driver.signIn(admin, 'admin@demo.example');
      await admin.waitForURL(/\/(admin|sadmin|smadmin)[^/]*$/);
      const area = new URL(admin.url()).pathname.split('/')[1] ?? 'admin';
      await admin.goto(`/${area}/appointments/${appointmentId}/video`);
      await poll(() => admin.getByRole('alert').textContent()).toContain(
        "Only the appointment's doctor and patient can join its video call",
      );
      expect(await admin.getByRole('button', { name: 'Join the call' }).count()).toBe(0);
    } finally {
      await driver.closeAll();
    }
  });
});
