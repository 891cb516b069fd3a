import { describe, expect, it } from 'vitest';
import type { Contact } from '@rpm/contracts';
import { canResendNow, orderFollowers } from './follower-order';

let sequence = 0;
function contact(overrides: Partial<Contact>): Contact {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    patientId: '00000000-0000-4000-8000-999999999999',
    contactType: 'CARING',
    name: `Contact ${String(sequence)}`,
    phone: `09000000${String(sequence).padStart(2, '0')}`,
    relationship: 'FRIEND',
    invitationStatus: 'SENT',
    favourite: false,
    follower: null,
    hiddenKinds: [],
    lastSentAt: '2026-03-01T10:00:00.000Z',
    resendAvailableAt: '2026-03-01T10:05:00.000Z',
    confirmedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const names = (contacts: readonly Contact[]) => contacts.map((item) => item.name);

describe('orderFollowers', () => {
  // The server's order: favourite, then emergency, then the oldest.
  const favourite = contact({ name: 'Zoe', favourite: true, contactType: 'CARING', createdAt: '2026-03-03T00:00:00.000Z' });
  const emergency = contact({ name: 'an', contactType: 'EMERGENCY', invitationStatus: 'CONFIRMED', createdAt: '2026-03-02T00:00:00.000Z' });
  const coach = contact({ name: 'Binh', contactType: 'COACH', invitationStatus: 'RESENT', createdAt: '2026-03-01T00:00:00.000Z' });
  const caring = contact({ name: 'Ánh', contactType: 'CARING', createdAt: '2026-03-04T00:00:00.000Z' });
  const fromServer = [favourite, emergency, coach, caring];

  it('keeps the server order when no column is chosen', () => {
    expect(names(orderFollowers(fromServer, null))).toEqual(['Zoe', 'an', 'Binh', 'Ánh']);
  });

  it('orders by alias name without regard to case or accents, both ways', () => {
    expect(names(orderFollowers(fromServer, { sortField: 'name', sortType: 'asc' }, 'vi'))).toEqual([
      'an',
      'Ánh',
      'Binh',
      'Zoe',
    ]);
    expect(names(orderFollowers(fromServer, { sortField: 'name', sortType: 'desc' }, 'vi'))).toEqual([
      'Zoe',
      'Binh',
      'Ánh',
      'an',
    ]);
  });

  it('orders by type and by state as the lifecycle reads, ties in the server order', () => {
    expect(names(orderFollowers(fromServer, { sortField: 'contactType', sortType: 'asc' }))).toEqual([
      'an',
      'Zoe',
      'Ánh',
      'Binh',
    ]);
    expect(names(orderFollowers(fromServer, { sortField: 'invitationStatus', sortType: 'asc' }))).toEqual([
      'Zoe',
      'Ánh',
      'Binh',
      'an',
    ]);
  });

  it('orders by when the follower was added', () => {
    expect(names(orderFollowers(fromServer, { sortField: 'createdAt', sortType: 'desc' }))).toEqual([
      'Ánh',
      'Zoe',
      'an',
      'Binh',
    ]);
  });

  it('does not change the list it is given', () => {
    orderFollowers(fromServer, { sortField: 'name', sortType: 'asc' });
    expect(names(fromServer)).toEqual(['Zoe', 'an', 'Binh', 'Ánh']);
  });
});

describe('canResendNow', () => {
  const sent = contact({ lastSentAt: '2026-03-01T10:00:00.000Z' });

  it('refuses within 5 minutes of the last send and allows it from then on', () => {
    expect(canResendNow(sent, new Date('2026-03-01T10:04:59.999Z'))).toBe(false);
    expect(canResendNow(sent, new Date('2026-03-01T10:05:00.000Z'))).toBe(true);
    expect(canResendNow({ ...sent, invitationStatus: 'RESENT' }, new Date('2026-03-01T11:00:00.000Z'))).toBe(true);
  });

  it('never resends a confirmed or deleted invitation', () => {
    const later = new Date('2026-03-02T00:00:00.000Z');
    expect(canResendNow({ ...sent, invitationStatus: 'CONFIRMED' }, later)).toBe(false);
    expect(canResendNow({ ...sent, invitationStatus: 'DELETED' }, later)).toBe(false);
  });
});
