import { daysUntilExpiry } from '@rpm/contracts';
import { pickLanguage, type SupportedLanguage } from '@rpm/i18n';

/**
 * License expiry reminders (pure rules and texts): a doctor is e-mailed 30 days and 7 days before a
 * medical license expires, in the doctor's language. The job (license-reminder-job.ts) records
 * each reminder it queues, so each goes out once per license, expiry date and threshold.
 */

/** Days before the expiry when a reminder is due, the earliest first. */
export const LICENSE_REMINDER_THRESHOLDS = [30, 7] as const;
export type LicenseReminderThreshold = (typeof LICENSE_REMINDER_THRESHOLDS)[number];

/**
 * The reminder due for a license that expires on `expiresOn`, seen on `today` (both YYYY-MM-DD):
 * the closest threshold reached, null once expired or while more than 30 days away. A range
 * rather than an exact day, so a day the job did not run is caught up the next day; a license
 * added 5 days before its expiry gets the 7-day reminder only.
 */
export function reminderThresholdOf(expiresOn: string, today: string): LicenseReminderThreshold | null {
  const daysLeft = daysUntilExpiry(expiresOn, today);
  if (daysLeft < 0) return null;
  for (const threshold of [...LICENSE_REMINDER_THRESHOLDS].reverse()) if (daysLeft <= threshold) return threshold;
  return null;
}

type ReminderTexts = Record<'subject' | 'body' | 'today' | 'tomorrow' | 'inDays', string>;

const TEXTS: Record<SupportedLanguage, ReminderTexts> = {
  en: {
    subject: '{organization}: your medical license "{license}" expires on {date}',
    body:
      'Hello {name},\n\nYour medical license "{license}" expires on {date} ({when}).\n\n' +
      'A doctor whose licenses have all expired is no longer assigned to patients and cannot accept care requests. ' +
      'Add your renewed license to your profile before that date.\n\n' +
      'This reminder is sent 30 days and 7 days before a license expires.',
    today: 'today',
    tomorrow: 'tomorrow',
    inDays: 'in {days} days',
  },
  vi: {
    subject: '{organization}: giấy phép hành nghề "{license}" của bạn hết hạn ngày {date}',
    body:
      'Xin chào {name},\n\nGiấy phép hành nghề "{license}" của bạn hết hạn ngày {date} ({when}).\n\n' +
      'Bác sĩ có tất cả giấy phép đã hết hạn sẽ không được phân công cho bệnh nhân và không thể nhận yêu cầu chăm sóc. ' +
      'Hãy thêm giấy phép đã gia hạn vào hồ sơ của bạn trước ngày đó.\n\n' +
      'Thư nhắc này được gửi 30 ngày và 7 ngày trước khi giấy phép hết hạn.',
    today: 'hôm nay',
    tomorrow: 'ngày mai',
    inDays: 'còn {days} ngày',
  },
};

/** The catalogue, for the test that checks every language has every text. */
export const LICENSE_REMINDER_CATALOGUE = TEXTS;

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);

/** dd/MM/yyyy, as the spec shows dates. */
const displayDate = (isoDate: string) => isoDate.split('-').reverse().join('/');

/** The reminder e-mail in the doctor's language (unknown languages: English). */
export function renderLicenseReminder(options: {
  language: string;
  organization: string;
  doctorName: string;
  licenseName: string;
  expiresOn: string;
  today: string;
}): { subject: string; body: string } {
  const texts = TEXTS[pickLanguage(options.language)];
  const days = daysUntilExpiry(options.expiresOn, options.today);
  const when = days === 0 ? texts.today : days === 1 ? texts.tomorrow : fill(texts.inDays, { days: String(days) });
  const values = {
    organization: options.organization,
    name: options.doctorName,
    license: options.licenseName,
    date: displayDate(options.expiresOn),
    when,
  };
  // A subject is one header line: nothing in a name may start another.
  return {
    subject: fill(texts.subject, values).replace(/[\r\n]+/g, ' '),
    body: fill(texts.body, values),
  };
}
