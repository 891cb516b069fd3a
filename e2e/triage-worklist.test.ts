import { beforeAll, describe, expect, it } from 'vitest';
import { callFromPage, callWithCookie, sessionCookie } from './support/api.js';
import { screenshot } from './support/console.js';
import { useConsoleSuite, waitForLive } from './support/suite.js';
import { myPatients, withAtRiskPatient, worklistRows } from './support/worklist.js';

/**
 * The triage worklist on the doctor's home (issue "A triage worklist"): the doctor's own patients
 * needing attention first (open SOS case, SOS, high risk, at risk, no data, normal), and a new SOS
 * moves its patient to the top within seconds, without reloading.
 */

const SEVERITY = ['NORMAL', 'NO_DATA', 'AT_RISK', 'HIGH_RISK', 'SOS', 'OPEN_SOS_CASE'];

const suite = useConsoleSuite();
let adminCookie = '';

beforeAll(async () => {
  adminCookie = await sessionCookie(suite.server.baseUrl, 'admin@demo.example');
});

const isWorstFirst = (attentions: string[]) =>
  attentions.every(
    (attention, index) =>
      index === 0 || SEVERITY.indexOf(attentions[index - 1] ?? '') >= SEVERITY.indexOf(attention),
  );

describe('triage worklist', () => {
  it('shows a doctor’s patients worst first, and a new SOS moves its patient to the top live', async () => {
    const page = await suite.signIn('doctor@demo.example', 'doctor');
    await waitForLive(page);
    // "My patients" is the doctor's default.
    const scope = page.getByTestId('patient-scope');
    expect(await scope.getByRole('radio', { name: 'My patients' }).isChecked()).toBe(true);

    // An at-risk patient and one in SOS among the doctor's own, whatever the demo data holds.
    let items = await withAtRiskPatient(page);
    if (!items.some((row) => row.status === 'SOS')) {
      const normal = items.find((row) => row.status === 'NORMAL');
      if (normal === undefined) throw new Error('no patient to raise');
      await callFromPage(page, 'POST', '/health/sos/hotline', { patientId: normal.id });
    }

    await expect
      .poll(
        async () => {
          const attentions = (await worklistRows(page)).map((row) => row.attention);
          const firstAtRisk = attentions.indexOf('AT_RISK');
          const firstSos = attentions.findIndex(
            (attention) => attention === 'SOS' || attention === 'OPEN_SOS_CASE',
          );
          return firstSos !== -1 && firstAtRisk !== -1 && firstSos < firstAtRisk && isWorstFirst(attentions);
        },
        { timeout: 12_000 },
      )
      .toBe(true);
    await page.waitForTimeout(500);
    await screenshot(page, 'triage-worklist');

    // The open cases of the doctor's patients are closed, so a new one is the only open case.
    items = await myPatients(page);
    for (const row of items)
      if (row.openSosCaseId !== null)
        await callWithCookie(
          suite.server.baseUrl,
          adminCookie,
          'PUT',
          `/account/sos-cases/${row.openSosCaseId}/close`,
          {
            reason: 'Handled by phone',
          },
        );
    await expect
      .poll(
        async () => (await worklistRows(page)).filter((row) => row.attention === 'OPEN_SOS_CASE').length,
        {
          timeout: 12_000,
        },
      )
      .toBe(0);

    // A new SOS (a hotline call) for an at-risk patient lower on the list.
    const rowsBefore = await worklistRows(page);
    const target = rowsBefore.find((row, index) => index > 0 && row.attention === 'AT_RISK');
    if (target === undefined) throw new Error('no at-risk patient below the top');
    await page.evaluate(() => {
      (window as unknown as { liveMarker: string }).liveMarker = 'still here';
    });
    const started = Date.now();
    await callFromPage(page, 'POST', '/health/sos/hotline', { patientId: target.id });
    await expect
      .poll(async () => (await worklistRows(page))[0], { timeout: 5_000, interval: 100 })
      .toEqual({ id: target.id, attention: 'OPEN_SOS_CASE' });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(5_000);
    expect(isWorstFirst((await worklistRows(page)).map((row) => row.attention))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
      'still here',
    );
    // The row opens the case.
    const top = page.getByTestId('patient-worklist').getByTestId('worklist-row').first();
    expect(await top.getByRole('link', { name: 'SOS case' }).count()).toBe(1);
    await page.waitForTimeout(400);
    await screenshot(page, 'triage-worklist-new-sos');

    // "My center" shows more of the center, with the same order (once the SOS popup is put off).
    const popup = page.getByRole('dialog', { name: 'SOS received' });
    await popup.getByRole('button', { name: 'Later' }).click();
    await popup.waitFor({ state: 'hidden' });
    await scope.getByText('My center').click();
    await expect
      .poll(async () => isWorstFirst((await worklistRows(page)).map((row) => row.attention)))
      .toBe(true);
    await page.waitForTimeout(400);
    await screenshot(page, 'triage-worklist-center');

    // The patient list has the same columns, "My patients" first, sorted by severity.
    await page.getByRole('navigation').getByRole('link', { name: 'Patients' }).click();
    await page.waitForURL('**/doctor/patients');
    const listAttentions = () =>
      page
        .getByTestId('patients-table')
        .getByTestId('patient-attention')
        .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-attention') ?? ''));
    await expect.poll(async () => (await listAttentions()).length).toBe(10);
    expect(isWorstFirst(await listAttentions())).toBe(true);
    expect((await listAttentions())[0]).toBe('OPEN_SOS_CASE');
    await screenshot(page, 'triage-patient-list');
  });
});
