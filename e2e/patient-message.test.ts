import { describe, expect, it } from 'vitest';
import { dismissToasts, screenshot } from './support/console.js';
import { queryDatabase } from './support/phone.js';
import { poll, useConsoleSuite } from './support/suite.js';

/**
 * "Send a message" on a patient's profile (spec §7 notification/send): the form's rules, then a
 * mandatory message that lands in the patient's notifications as a notice that must be read.
 */
const suite = useConsoleSuite();

describe('a message to a patient', () => {
  it('is written on the patient’s profile and reaches the patient’s notifications as a mandatory notice', async () => {
    const [patient] = await queryDatabase<{ id: string; user_id: string; name: string }>(
      suite.server,
      `SELECT p.id, p.user_id, p.first_name || ' ' || p.last_name AS name FROM patients p JOIN users u ON u.id = p.user_id WHERE u.email = 'patient@demo.example'`,
    );
    if (patient === undefined) throw new Error('no demo patient');
    const subject = `Fasting test ${Date.now().toString(36).slice(-5)}`;
    const page = await suite.signIn('admin@demo.example', 'admin');
    await page.goto(`${suite.server.baseUrl}/admin/patients/${patient.id}`);
    await page.getByRole('button', { name: 'Send a message' }).click();
    const dialog = page.getByRole('dialog', { name: `Message to ${patient.name}` });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await poll(() => dialog.getByText('This field is required').count()).toBe(2);

    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('Message').fill('Please come without breakfast on Monday.');
    await dialog.getByLabel('Mandatory notice').check();
    await screenshot(page, 'patient-message-dialog');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await poll(() => page.getByText(`Message sent to ${patient.name}`).first().isVisible()).toBe(true);
    await poll(() => dialog.isVisible()).toBe(false);
    await dismissToasts(page);

    const notices = await queryDatabase<{ kind: string; title: string; body: string; force: boolean; read_at: Date | null }>(
      suite.server,
      `SELECT kind, title, body, force, read_at FROM notifications WHERE recipient_id = $1 AND title = $2`,
      [patient.user_id, subject],
    );
    expect(notices).toEqual([{ kind: 'message', title: subject, body: 'Please come without breakfast on Monday.', force: true, read_at: null }]);
  });
});
