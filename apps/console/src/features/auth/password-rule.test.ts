import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD_RULE, parsePasswordRule } from '@rpm/contracts';
import { z } from 'zod';
import { messagesForIssues } from '../../lib/form-errors';
import { addNewPasswordIssues, ALWAYS_REFINE, passwordChecklist } from './password-rule';

const metItems = (password: string, rule = DEFAULT_PASSWORD_RULE) =>
  passwordChecklist(password, rule)
    .filter((line) => line.isMet)
    .map((line) => line.item);

describe('passwordChecklist', () => {
  it('shows every line unmet for an empty password', () => {
    expect(metItems('')).toEqual([]);
    expect(passwordChecklist('', DEFAULT_PASSWORD_RULE).map((line) => line.item)).toEqual([
      'length',
      'lower',
      'upper',
      'digit',
      'special',
      'allowedOnly',
      'notCommon',
    ]);
  });

  it('ticks each rule as it is met', () => {
    expect(metItems('kestrel')).toEqual(['lower', 'allowedOnly', 'notCommon']);
    expect(metItems('Lan#Health2026')).toEqual([
      'length',
      'lower',
      'upper',
      'digit',
      'special',
      'allowedOnly',
      'notCommon',
    ]);
    // A character outside the allowed set, and a well-known password, are called out.
    expect(metItems('Lan#Health2026~')).not.toContain('allowedOnly');
    expect(metItems('Password1!')).not.toContain('notCommon');
  });

  it('follows the tenant’s rule: lines it does not ask for are not shown', () => {
    const rule = parsePasswordRule(JSON.stringify({ minLength: 10, upper: false, special: '' }));
    expect(passwordChecklist('', rule).map((line) => line.item)).toEqual([
      'length',
      'lower',
      'digit',
      'allowedOnly',
      'notCommon',
    ]);
  });
});

describe('addNewPasswordIssues', () => {
  const schema = z
    .object({ other: z.string().min(1), password: z.string(), confirmation: z.string() })
    .superRefine((value, context) => {
      addNewPasswordIssues(context, DEFAULT_PASSWORD_RULE, {
        password: value.password,
        confirmation: value.confirmation,
        passwordPath: 'password',
        confirmationPath: 'confirmation',
      });
    }, ALWAYS_REFINE);

  const messages = (input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? {} : messagesForIssues(result.error.issues);
  };

  it('refuses a weak password and a confirmation that differs, alongside the other fields', () => {
    expect(messages({ other: '', password: 'weak', confirmation: 'weak!' })).toEqual({
      other: { key: 'form.required' },
      password: { key: 'form.passwordRule' },
      confirmation: { key: 'form.passwordMismatch' },
    });
  });

  it('asks for the confirmation, and accepts a good matching pair', () => {
    expect(messages({ other: 'x', password: 'Lan#Health2026', confirmation: '' })).toEqual({
      confirmation: { key: 'form.confirmationRequired' },
    });
    expect(messages({ other: 'x', password: 'Lan#Health2026', confirmation: 'Lan#Health2026' })).toEqual({});
  });
});
