import { describe, expect, it } from 'vitest';
import { LICENSE_REMINDER_CATALOGUE, reminderThresholdOf, renderLicenseReminder } from './license-reminders.js';

describe('reminderThresholdOf', () => {
  it.each([
    ['2026-08-01', null], // 31 days away
    ['2026-07-31', 30],
    ['2026-07-09', 30], // 8 days
    ['2026-07-08', 7],
    ['2026-07-01', 7], // expires at the end of today
    ['2026-06-30', null], // expired
  ])('a license expiring on %s, seen on 2026-07-01: %s', (expiresOn, expected) => {
    expect(reminderThresholdOf(expiresOn, '2026-07-01')).toBe(expected);
  });
});

describe('renderLicenseReminder', () => {
  const base = { organization: 'Sunrise', doctorName: 'Lan Tran', licenseName: 'Cert 1', expiresOn: '2026-07-08', today: '2026-07-01' };

  it('names the license and its date (dd/MM/yyyy) in the doctor’s language', () => {
    expect(renderLicenseReminder({ ...base, language: 'en' })).toMatchObject({
      subject: 'Sunrise: your medical license "Cert 1" expires on 08/07/2026',
      body: expect.stringContaining('expires on 08/07/2026 (in 7 days)') as string,
    });
    expect(renderLicenseReminder({ ...base, language: 'vi' }).body).toContain('hết hạn ngày 08/07/2026 (còn 7 ngày)');
    expect(renderLicenseReminder({ ...base, language: 'fr' }).subject).toContain('your medical license');
    expect(renderLicenseReminder({ ...base, language: 'en', expiresOn: '2026-07-02' }).body).toContain('(tomorrow)');
    expect(renderLicenseReminder({ ...base, language: 'vi', expiresOn: '2026-07-01' }).body).toContain('(hôm nay)');
  });

  it('keeps the subject on one line whatever the license is called', () => {
    expect(renderLicenseReminder({ ...base, language: 'en', licenseName: 'A\r\nBcc: x@y.z' }).subject).not.toMatch(/[\r\n]/);
  });

  it('has every text in every language, none empty', () => {
    const [english, ...others] = Object.values(LICENSE_REMINDER_CATALOGUE);
    for (const texts of others) expect(Object.keys(texts)).toEqual(Object.keys(english ?? {}));
    for (const texts of Object.values(LICENSE_REMINDER_CATALOGUE)) for (const text of Object.values<string>(texts)) expect(text.trim()).not.toBe('');
  });
});
