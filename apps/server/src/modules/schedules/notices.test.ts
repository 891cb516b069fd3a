import { describe, expect, it } from 'vitest';
import { APPOINTMENT_CHANGES, APPOINTMENT_NOTICE_CATALOGUE, renderAppointmentNotice } from './appointment-notices.js';
import { APPOINTMENT_REMINDER_CATALOGUE } from './appointment-reminders.js';
import { renderScheduleNotice, SCHEDULE_DECISIONS, SCHEDULE_NOTICE_CATALOGUE } from './schedule-notices.js';

const keysOf = (value: object): string[] =>
  Object.entries(value).flatMap(([key, inner]) =>
    typeof inner === 'object' && inner !== null ? keysOf(inner as object).map((sub) => `${key}.${sub}`) : [key],
  );

describe('appointment and schedule e-mails', () => {
  it('have every text in every language', () => {
    for (const catalogue of [APPOINTMENT_NOTICE_CATALOGUE, APPOINTMENT_REMINDER_CATALOGUE, SCHEDULE_NOTICE_CATALOGUE]) {
      expect(keysOf(catalogue.vi).sort()).toEqual(keysOf(catalogue.en).sort());
    }
  });

  it('fill every placeholder, with the time in the recipient’s zone', () => {
    for (const language of ['en', 'vi']) {
      for (const change of APPOINTMENT_CHANGES) {
        const message = renderAppointmentNotice({
          change,
          language,
          timeZone: 'America/Toronto',
          recipientName: 'Anna',
          patientName: 'Hung Pham',
          doctorName: 'Linh Nguyen',
          // 14:30 UTC is 09:30 in Toronto in December (EST).
          startsAt: new Date('2026-12-02T14:30:00Z'),
          place: 'ONLINE',
          reason: 'Review',
          cancelReason: 'Travelling',
          organization: 'Demo Clinic',
        });
        expect(`${message.subject}\n${message.body}`).not.toMatch(/\{\w+\}/);
        expect(`${message.subject}\n${message.body}`).toContain(change === 'COMPLETED' ? '02/12/2026' : '09:30');
        if (change === 'CANCELED') expect(message.body).toContain('Travelling');
        expect(message.body).toContain('Demo Clinic');
      }
      for (const decision of SCHEDULE_DECISIONS) {
        const message = renderScheduleNotice({
          decision,
          language,
          doctorName: 'Linh Nguyen',
          schedule: { start_date: '2026-12-01', end_date: '2026-12-31', start_time: '08:00:00', end_time: '12:00:00', time_zone: 'Asia/Ho_Chi_Minh' },
          reason: decision === 'reject' ? 'Overlaps the ward round' : null,
        });
        expect(`${message.subject}\n${message.body}`).not.toMatch(/\{\w+\}/);
        expect(message.body).toContain('01/12/2026');
        expect(message.body).toContain('08:00–12:00');
        if (decision === 'reject') expect(message.body).toContain('Overlaps the ward round');
      }
    }
  });
});
