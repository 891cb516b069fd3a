import { DEFAULT_ALERT_SETTINGS } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import {
  HIGH_RISK_TIMEOUT_TASK,
  planEscalation,
  planFollowerSms,
  planNoData,
  SOS_KPI_TASK,
  type EscalationState,
  type LevelSignal,
} from './escalation-plan.js';
import type { AlertPatient } from './patient-context.js';

/* The escalation rules without a database: what a signal plans, as data. */

const NOW = new Date('2026-03-10T08:00:00Z');
const settings = { ...DEFAULT_ALERT_SETTINGS, highRiskConfirmSeconds: 60, sosKpiMinutes: 15 };
const patient: AlertPatient = {
  id: 'patient-1',
  patientCode: 'BN10001',
  fullName: 'Lan Nguyen',
  phone: '+84900000001',
  email: null,
  status: 'NORMAL',
  healthCenterId: 'center-1',
  hotline: '1900',
  language: 'en',
  isSubUser: false,
  isSuppressed: false,
  isActive: true,
};
const state = (overrides: Partial<EscalationState> = {}): EscalationState => ({
  patient,
  openCase: null,
  followers: [
    { id: 'c-1', name: 'Mai', phone: '+84900000002', contactType: 'EMERGENCY' },
    { id: 'c-2', name: 'Nam', phone: '+84900000003', contactType: 'FAMILY' },
  ],
  careTeam: [{ id: 'd-1', name: 'Dr Hoa', email: 'hoa@example.com', phone: null, language: 'vi' }],
  ids: { alert: 'alert-1', sosCase: 'case-1' },
  ...overrides,
});
const signal = (overrides: Partial<LevelSignal> = {}): LevelSignal => ({
  tenantId: 'tenant-1',
  patientId: patient.id,
  healthCenterId: patient.healthCenterId,
  level: 'AT_RISK',
  previousStatus: 'NORMAL',
  alertType: 'SPO2',
  vitals: [{ measure: 'SPO2', value: 86, measuredAt: NOW }],
  location: null,
  source: 'READING',
  ...overrides,
});

describe('planEscalation', () => {
  it('AT_RISK: an alert and an SMS to the patient, no timer', () => {
    const plan = planEscalation(state(), signal(), settings, NOW);
    expect(plan.alert).toMatchObject({ id: 'alert-1', level: 'AT_RISK', type: 'SPO2', sosCaseId: null });
    expect(plan.deliveries).toEqual([
      expect.objectContaining({
        kind: 'MESSAGE',
        channel: 'SMS',
        recipient: '+84900000001',
        purpose: 'ALERT_AT_RISK',
      }),
    ]);
    expect(plan.jobs).toEqual([]);
    expect(plan.sosCase).toBeNull();
  });

  it('HIGH_RISK: the confirmation window starts (one timer per patient), the text names its seconds', () => {
    const plan = planEscalation(state(), signal({ level: 'HIGH_RISK' }), settings, NOW);
    expect(plan.jobs).toEqual([
      {
        task: HIGH_RISK_TIMEOUT_TASK,
        payload: { alertId: 'alert-1' },
        runAt: new Date(NOW.getTime() + 60_000),
        jobKey: 'high-risk:patient-1',
      },
    ]);
    expect(plan.deliveries[0]).toMatchObject({ purpose: 'ALERT_HIGH_RISK' });
    expect(plan.deliveries[0]?.kind === 'MESSAGE' && plan.deliveries[0].body).toContain('60 seconds');
  });

  it('a patient with an email and no phone is written to; one with neither is alerted without a message', () => {
    const byEmail = planEscalation(
      state({ patient: { ...patient, phone: null, email: 'lan@example.com' } }),
      signal(),
      settings,
      NOW,
    );
    expect(byEmail.deliveries[0]).toMatchObject({ channel: 'EMAIL', recipient: 'lan@example.com' });
    const unreachable = planEscalation(
      state({ patient: { ...patient, phone: null } }),
      signal(),
      settings,
      NOW,
    );
    expect(unreachable.alert).not.toBeNull();
    expect(unreachable.deliveries).toEqual([]);
  });

  it('nothing for an inactive patient, below SOS while "I am fine" holds, or at a level the episode alerted', () => {
    const empty = { alert: null, sosCase: null, deliveries: [], jobs: [], events: [] };
    expect(
      planEscalation(state({ patient: { ...patient, isActive: false } }), signal(), settings, NOW),
    ).toMatchObject(empty);
    expect(planEscalation(state({ patient: undefined }), signal(), settings, NOW)).toMatchObject(empty);
    const fine = state({ patient: { ...patient, isSuppressed: true } });
    expect(planEscalation(fine, signal({ level: 'HIGH_RISK' }), settings, NOW)).toMatchObject(empty);
    expect(planEscalation(fine, signal({ level: 'SOS' }), settings, NOW).sosCase).not.toBeNull();
    expect(
      planEscalation(state(), signal({ previousStatus: 'HIGH_RISK', level: 'AT_RISK' }), settings, NOW),
    ).toMatchObject(empty);
  });

  it('SOS with no open case: the case, its history, ticket and KPI timer, calls and SMS to followers, the care team, the popup', () => {
    const plan = planEscalation(
      state(),
      signal({ level: 'SOS', source: 'SOS_BUTTON', alertType: 'CALL' }),
      settings,
      NOW,
    );
    const kpiDueAt = new Date(NOW.getTime() + 15 * 60_000);
    expect(plan.sosCase).toMatchObject({ kind: 'OPEN', id: 'case-1', kpiDueAt, source: 'SOS_BUTTON' });
    expect(plan.caseEntries).toEqual([
      { sosCaseId: 'case-1', kind: 'OPENED', toStatus: 'NEW', note: 'SOS_BUTTON' },
    ]);
    expect(plan.alert).toMatchObject({ level: 'SOS', sosCaseId: 'case-1' });
    expect(plan.ticket).toMatchObject({ sosCaseId: 'case-1', title: 'SOS BN10001 Lan Nguyen', kpiDueAt });
    expect(plan.jobs).toEqual([
      { task: SOS_KPI_TASK, payload: { sosCaseId: 'case-1' }, runAt: kpiDueAt, jobKey: 'sos-kpi:case-1' },
    ]);
    expect(plan.deliveries.map((delivery) => [delivery.kind, delivery.purpose, delivery.contactId])).toEqual([
      ['CALL', 'SOS_FOLLOWER_CALL', 'c-1'],
      ['MESSAGE', 'SOS_FOLLOWER_SMS', 'c-1'],
      ['MESSAGE', 'SOS_FOLLOWER_SMS', 'c-2'],
      ['MESSAGE', 'SOS_CARE_TEAM', null],
    ]);
    // The doctor is written to in the doctor's language.
    expect(plan.deliveries[3]).toMatchObject({
      channel: 'EMAIL',
      recipient: 'hoa@example.com',
      subject: 'SOS: Lan Nguyen',
    });
    const doctorMessage = plan.deliveries[3];
    expect(doctorMessage?.kind === 'MESSAGE' ? doctorMessage.body : '').toContain('Lan Nguyen');
    expect(doctorMessage?.kind === 'MESSAGE' ? doctorMessage.body : '').not.toContain('Your patient');
    expect(plan.events.map((event) => event.type)).toEqual(['sos.opened']);
    expect(plan.events[0]?.payload).toMatchObject({
      reason: 'SOS_BUTTON',
      status: 'NEW',
      sosCaseId: 'case-1',
    });
  });

  it('SOS with a case open joins it; a resolved case is taken up again; nobody is messaged again', () => {
    const joined = planEscalation(
      state({ openCase: { id: 'case-0', status: 'IN_PROCESS' } }),
      signal({ level: 'SOS', source: 'FALL' }),
      settings,
      NOW,
    );
    expect(joined.sosCase).toBeNull();
    expect(joined.alert).toMatchObject({ sosCaseId: 'case-0' });
    expect(joined.caseEntries).toEqual([{ sosCaseId: 'case-0', kind: 'SOS_REPEATED', note: 'FALL' }]);
    expect(joined.deliveries).toEqual([]);
    expect(joined.ticket).toBeNull();
    const reopened = planEscalation(
      state({ openCase: { id: 'case-0', status: 'RESOLVED' } }),
      signal({ level: 'SOS' }),
      settings,
      NOW,
    );
    expect(reopened.sosCase).toEqual({ kind: 'REOPEN', id: 'case-0' });
    expect(reopened.caseEntries.map((entry) => entry.kind)).toEqual(['SOS_REPEATED', 'REOPEN']);
    expect(reopened.events[0]?.payload).toMatchObject({ status: 'IN_PROCESS', repeated: true });
  });

  it("a sub-user's SOS is HIGH_RISK: no case, the confirmation window", () => {
    const plan = planEscalation(
      state({ patient: { ...patient, isSubUser: true } }),
      signal({ level: 'SOS' }),
      settings,
      NOW,
    );
    expect(plan.sosCase).toBeNull();
    expect(plan.alert?.level).toBe('HIGH_RISK');
    expect(plan.jobs[0]?.task).toBe(HIGH_RISK_TIMEOUT_TASK);
  });
});

describe('the other plans', () => {
  it('no data: an AT_RISK NO_DATA alert and a notice to the patient', () => {
    const plan = planNoData(
      patient,
      {
        tenantId: 'tenant-1',
        patientId: patient.id,
        healthCenterId: null,
        deviceId: 'd',
        lastSyncedAt: null,
        thresholdMinutes: 15,
      },
      'alert-9',
    );
    expect(plan.alert).toMatchObject({ id: 'alert-9', type: 'NO_DATA', level: 'AT_RISK', source: 'NO_DATA' });
    expect(plan.deliveries[0]).toMatchObject({ purpose: 'ALERT_NO_DATA', recipient: '+84900000001' });
  });

  it('an unanswered high-risk alert: an SMS to every follower and one live event', () => {
    const plan = planFollowerSms('tenant-1', patient, state().followers, 'SPO2');
    expect(plan.deliveries.map((delivery) => delivery.kind === 'MESSAGE' && delivery.recipient)).toEqual([
      '+84900000002',
      '+84900000003',
    ]);
    expect(plan.events).toEqual([
      { type: 'message.updated', payload: { kind: 'SMS', count: 2, purpose: 'HIGH_RISK_FOLLOWER_SMS' } },
    ]);
    expect(planFollowerSms('tenant-1', patient, [], 'SPO2').events).toEqual([]);
  });
});
