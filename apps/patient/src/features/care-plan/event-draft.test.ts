import { describe, expect, it } from 'vitest';
import { emptyDraft, eventInputOf } from './event-draft';

describe('event drafts', () => {
  it('needs a time, a label and an icon (spec §5), and leaves empty optional fields out', () => {
    const empty = eventInputOf({ ...emptyDraft(), arrivalAt: '' });
    expect(empty.problems).toEqual({
      arrivalAt: 'events.problems.arrivalAt',
      label: 'events.problems.label',
      icon: 'events.problems.icon',
    });
    const filled = eventInputOf({
      ...emptyDraft(),
      arrivalAt: '2026-12-03T08:30',
      label: ' Blood test ',
      icon: 'TEST',
      location: '  ',
    });
    expect(filled.problems).toBeNull();
    expect(filled.input).toMatchObject({
      label: 'Blood test',
      icon: 'TEST',
      status: 'PLANNED',
      location: undefined,
    });
    expect(filled.input?.arrivalAt).toBe(new Date('2026-12-03T08:30').toISOString());
  });
});
