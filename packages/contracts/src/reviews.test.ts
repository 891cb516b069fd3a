import { describe, expect, it } from 'vitest';
import { nextReviewState, REVIEW_ACTIONS, REVIEW_STATES, reviewFieldsSchema, reviewModerationSchema } from './reviews.js';

describe('review moderation', () => {
  it('reports and hides a shown review, shows a hidden one again, and nothing else', () => {
    const allowed = REVIEW_STATES.flatMap((state) =>
      REVIEW_ACTIONS.flatMap((action) => {
        const to = nextReviewState(state, action);
        return to === undefined ? [] : [`${state} ${action} ${to}`];
      }),
    );
    expect(allowed).toEqual([
      'VISIBLE report REPORTED',
      'VISIBLE hide HIDDEN',
      'REPORTED report REPORTED',
      'REPORTED hide HIDDEN',
      'HIDDEN unhide VISIBLE',
    ]);
  });

  it('needs a reason for every action', () => {
    expect(reviewModerationSchema.safeParse({ action: 'hide', reason: '  ' }).success).toBe(false);
    expect(reviewModerationSchema.safeParse({ action: 'hide', reason: 'Abusive' }).success).toBe(true);
  });
});

describe('review fields', () => {
  it.each([['0', false], ['1', true], ['5', true], ['6', false], ['3.5', false], ['', false]])('rating %s valid: %s', (rating, valid) => {
    expect(reviewFieldsSchema.safeParse({ rating }).success).toBe(valid);
  });
});
