import { describe, expect, it } from 'vitest';
import { emptyDraft, localInputValue, valuesOf } from './entry-form';

describe('entry drafts', () => {
  it('reads typed text as numbers (a decimal comma too) and an empty box as no value', () => {
    const at = new Date(2026, 10, 20, 8, 5);
    const draft = { ...emptyDraft('TEMPERATURE', at), value: ' 37,4 ' };
    expect(valuesOf(draft)).toEqual({ measure: 'TEMPERATURE', value: 37.4, measuredAt: at });
    expect(valuesOf({ ...draft, value: '' }).value).toBeUndefined();
    expect(valuesOf({ ...emptyDraft('BLOOD_PRESSURE', at), systolic: '128', diastolic: 'x' })).toEqual({
      measure: 'BLOOD_PRESSURE',
      systolic: 128,
      diastolic: Number.NaN,
      measuredAt: at,
    });
  });

  it('writes the phone-local time a datetime-local box shows, to the minute', () => {
    expect(localInputValue(new Date(2026, 0, 2, 3, 4, 59))).toBe('2026-01-02T03:04');
    expect(new Date(localInputValue(new Date(2026, 0, 2, 3, 4))).getTime()).toBe(new Date(2026, 0, 2, 3, 4).getTime());
  });
});
