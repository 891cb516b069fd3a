import { describe, expect, it } from 'vitest';
import { availableTransitions, tokenOf } from './appointment-actions';

const DOCTOR = '0193a4b2-0000-7000-8000-000000000001';
const OPERATOR = '0193a4b2-0000-7000-8000-000000000002';
const all = () => true;
const onlyUpdate = (permission: string) => permission === 'appointment.update';

describe('availableTransitions', () => {
  const at = (status: Parameters<typeof availableTransitions>[0]['status']) => ({
    status,
    doctor: { id: DOCTOR, fullName: 'Linh Nguyen' },
  });

  it('gives the front desk check-in and cancel, the doctor also its examination steps', () => {
    expect(availableTransitions(at('UPCOMING'), OPERATOR, all)).toEqual(['checkIn', 'cancel']);
    expect(availableTransitions(at('UPCOMING'), DOCTOR, all)).toEqual(['checkIn', 'start', 'cancel']);
    expect(availableTransitions(at('WAITING_FOR_DOCTOR'), DOCTOR, all)).toEqual(['start', 'cancel']);
    expect(availableTransitions(at('EXAMINING'), DOCTOR, all)).toEqual(['hold', 'complete']);
    expect(availableTransitions(at('EXAMINING'), OPERATOR, all)).toEqual([]);
    expect(availableTransitions(at('PENDING'), DOCTOR, all)).toEqual(['start', 'complete', 'cancel']);
  });

  it('offers nothing on a closed appointment, and cancelling only with appointment.cancel', () => {
    expect(availableTransitions(at('COMPLETED'), DOCTOR, all)).toEqual([]);
    expect(availableTransitions(at('CANCELED'), DOCTOR, all)).toEqual([]);
    expect(availableTransitions(at('UPCOMING'), OPERATOR, onlyUpdate)).toEqual(['checkIn']);
    expect(availableTransitions(at('UPCOMING'), OPERATOR, () => false)).toEqual([]);
  });
});

describe('tokenOf', () => {
  it('takes the token as typed, or the end of an address', () => {
    expect(tokenOf('  abc.def \n')).toBe('abc.def');
    expect(tokenOf('https://care.example/check-in/abc.def')).toBe('abc.def');
  });
});
