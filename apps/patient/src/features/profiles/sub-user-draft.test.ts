import { describe, expect, it } from 'vitest';
import { checkDraft, emptyDraft } from './sub-user-draft';

const child = {
  ...emptyDraft,
  firstName: ' Bé ',
  lastName: 'Na',
  birthday: '2019-05-01',
  relation: 'CHILD',
  treatedConditions: ['DIABETES' as const],
};

describe('sub-user drafts', () => {
  it('sends a child with trimmed names, no gender as null, and the ticked conditions', () => {
    expect(checkDraft(child)).toEqual({
      input: {
        firstName: 'Bé',
        lastName: 'Na',
        gender: null,
        birthday: '2019-05-01',
        relation: 'CHILD',
        smoking: false,
        treatedConditions: ['DIABETES'],
      },
    });
    expect(checkDraft({ ...child, gender: 'FEMALE', smoking: true })).toMatchObject({ input: { gender: 'FEMALE', smoking: true } });
  });

  it('names each refused field: required, digits in a name, a birthday in the future or not a date', () => {
    expect(checkDraft(emptyDraft)).toEqual({
      problems: { firstName: 'form.required', lastName: 'form.required', birthday: 'form.required', relation: 'form.required' },
    });
    expect(checkDraft({ ...child, firstName: '   ', lastName: 'Na2' })).toEqual({
      problems: { firstName: 'form.required', lastName: 'form.nameInvalid' },
    });
    expect(checkDraft({ ...child, birthday: '2999-01-01' })).toEqual({ problems: { birthday: 'form.birthdayFuture' } });
    expect(checkDraft({ ...child, birthday: '2019-02-30' })).toEqual({ problems: { birthday: 'form.birthdayInvalid' } });
  });
});
