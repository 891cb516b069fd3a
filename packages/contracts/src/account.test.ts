import { describe, expect, it } from 'vitest';
import { isSupportedTimeZone } from './account.js';

describe('isSupportedTimeZone', () => {
  it('takes canonical IANA names and the aliases the runtime does not list, and UTC', () => {
    for (const zone of ['Asia/Ho_Chi_Minh', 'Asia/Saigon', 'Asia/Kolkata', 'America/Toronto', 'UTC'])
      expect(isSupportedTimeZone(zone), zone).toBe(true);
  });
  it('refuses unknown names, offsets and abbreviations', () => {
    for (const zone of ['Mars/Olympus', '+07:00', 'ICT', '', 'Asia/Ho Chi Minh'])
      expect(isSupportedTimeZone(zone), zone).toBe(false);
  });
});
