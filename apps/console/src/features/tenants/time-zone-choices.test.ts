import { describe, expect, it } from 'vitest';
import { timeZoneChoices } from './tenant-settings-model';

describe('timeZoneChoices', () => {
  it('offers the runtime’s zones, UTC and the current value even when the runtime lists it under another name', () => {
    const choices = timeZoneChoices('Asia/Ho_Chi_Minh');
    expect(choices).toContain('Asia/Ho_Chi_Minh');
    expect(choices).toContain('UTC');
    expect(choices).toContain('America/Toronto');
    expect(new Set(choices).size).toBe(choices.length);
    expect(choices).toEqual([...choices].sort((a, b) => a.localeCompare(b)));
  });

  it('does not offer an empty value', () => {
    expect(timeZoneChoices('')).not.toContain('');
  });
});
