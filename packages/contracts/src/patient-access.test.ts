import { describe, expect, it } from 'vitest';
import {
  canChangePatient,
  canReadPatient,
  canReadPatientData,
  canSeePatientEvent,
  FOLLOWER_EVENT_TYPES,
  patientAccessOf,
  type PatientAccessSubject,
  type PatientFacts,
} from './patient-access.js';
import { LIVE_EVENT_TYPES } from './realtime.js';

const T = 'tenant';
const me: PatientAccessSubject = { kind: 'patient', userId: 'me' };
const own: PatientFacts = { tenantId: T, userId: 'me', healthCenterId: 'c1' };
const held: PatientFacts = { tenantId: T, userId: null, healthCenterId: 'c1', holderUserId: 'me' };
const followed: PatientFacts = { tenantId: T, userId: 'other', healthCenterId: 'c1', followers: [{ userId: 'me', hiddenKinds: ['SPO2', 'ECG'] }] };
const stranger: PatientFacts = { tenantId: T, userId: 'other', healthCenterId: 'c1', followers: [{ userId: 'someone', hiddenKinds: [] }] };
const center: PatientAccessSubject = { kind: 'staff', centers: ['c1'] };
const elsewhere: PatientAccessSubject = { kind: 'staff', centers: ['c2'] };

describe('the patient access rule', () => {
  it('tells how a patient account reaches a record: own, held sub-user, followed, or not at all', () => {
    expect(patientAccessOf(me, T, own)).toBe('own');
    expect(patientAccessOf(me, T, held)).toBe('holder');
    expect(patientAccessOf(me, T, followed)).toBe('follower');
    expect(patientAccessOf(me, T, stranger)).toBeNull();
    expect(patientAccessOf(me, 'other-tenant', followed)).toBeNull();
    // Without the facts of its followers a patient is followed by no one.
    expect(patientAccessOf(me, T, { tenantId: T, userId: 'other', healthCenterId: 'c1' })).toBeNull();
  });

  it('lets staff read by health center, whoever holds or follows the patient', () => {
    expect(patientAccessOf(center, T, followed)).toBe('staff');
    expect(patientAccessOf(center, T, held)).toBe('staff');
    expect(canReadPatient(elsewhere, T, followed)).toBe(false);
    expect(canReadPatient({ kind: 'staff', centers: 'all' }, T, { ...held, healthCenterId: null })).toBe(true);
  });

  it('lets followers read but never change; owners, holders and staff change', () => {
    expect(canReadPatient(me, T, followed)).toBe(true);
    expect(canChangePatient(me, T, followed)).toBe(false);
    expect(canChangePatient(me, T, own)).toBe(true);
    expect(canChangePatient(me, T, held)).toBe(true);
    expect(canChangePatient(center, T, followed)).toBe(true);
    expect(canChangePatient(me, T, stranger)).toBe(false);
  });

  it('shows a follower the record, alerts, SOS and the kinds not hidden from it, nothing private', () => {
    expect(canReadPatientData(me, T, followed, 'record')).toBe(true);
    expect(canReadPatientData(me, T, followed, 'alerts')).toBe(true);
    expect(canReadPatientData(me, T, followed, 'sos')).toBe(true);
    expect(canReadPatientData(me, T, followed, 'HEART_RATE')).toBe(true);
    expect(canReadPatientData(me, T, followed, 'SPO2')).toBe(false);
    expect(canReadPatientData(me, T, followed, 'ECG')).toBe(false);
    expect(canReadPatientData(me, T, followed, 'private')).toBe(false);
    // The owner, the holder and staff: everything they may read.
    for (const [subject, patient] of [[me, own], [me, held], [center, followed]] as const) {
      expect(canReadPatientData(subject, T, patient, 'private')).toBe(true);
      expect(canReadPatientData(subject, T, patient, 'SPO2')).toBe(true);
    }
    expect(canReadPatientData(me, T, stranger, 'record')).toBe(false);
  });

  it('hands a follower the followed patient’s status, alert and SOS events only, hidden kinds or not', () => {
    const event = (type: string, patient: PatientFacts | null) => ({ tenantId: T, type, patientId: 'p', healthCenterId: 'c1', patient });
    expect(canSeePatientEvent(me, T, event('sos.opened', followed))).toBe(true);
    expect(canSeePatientEvent(me, T, event('alert.raised', followed))).toBe(true);
    expect(canSeePatientEvent(me, T, event('follower.changed', followed))).toBe(true);
    expect(canSeePatientEvent(me, T, event('ticket.created', followed))).toBe(false);
    expect(canSeePatientEvent(me, T, event('message.updated', followed))).toBe(false);
    // The owner and the holder get every event of the record; a stranger none.
    expect(canSeePatientEvent(me, T, event('ticket.created', own))).toBe(true);
    expect(canSeePatientEvent(me, T, event('ticket.created', held))).toBe(true);
    expect(canSeePatientEvent(me, T, event('sos.opened', stranger))).toBe(false);
    expect(canSeePatientEvent(me, T, event('sos.opened', null))).toBe(false);
    expect(canSeePatientEvent(me, T, { tenantId: T, type: 'system.notice', patientId: null, healthCenterId: null, patient: null })).toBe(false);
  });

  it('names only live event types the product publishes for followers', () => {
    for (const type of FOLLOWER_EVENT_TYPES) expect(LIVE_EVENT_TYPES).toContain(type);
  });
});
