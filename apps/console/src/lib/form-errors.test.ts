import { beforeAll, describe, expect, it } from 'vitest';
import {
  otpGrantSchema,
  profileUpdateSchema,
  registerSchema,
  roleInputSchema,
  tenantCodeSchema,
} from '@rpm/contracts';
import type { z } from 'zod';
import { ApiError } from '../api/api-error';
import { initI18n } from '../i18n';
import { fieldMessageText, messagesForIssues, serverFieldMessages } from './form-errors';

beforeAll(async () => {
  await initI18n();
});

function messagesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be refused');
  return messagesForIssues(result.error.issues);
}

const validRegistration = {
  tenant: 'demo',
  firstName: 'Lan',
  lastName: 'Tran',
  email: 'lan@example.org',
  birthday: '1990-06-15',
  password: 'Lan#Health2026',
  purpose: 'PERSONAL_MONITORING',
  acceptTerms: true,
  acceptPrivacy: true,
  role: 'PATIENT',
};

describe('messages for the contracts’ rules', () => {
  it('explains each registration rule with its own message, never zod’s English', () => {
    const today = new Date();
    const tenYearsAgo = `${String(today.getFullYear() - 10)}-01-01`;
    expect(messagesOf(registerSchema, { ...validRegistration, firstName: 'Lan2' })).toEqual({
      firstName: { key: 'form.nameDigits' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, birthday: tenYearsAgo })).toEqual({
      birthday: { key: 'form.underage' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, birthday: '2999-01-01' })).toEqual({
      birthday: { key: 'form.dateFuture' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, birthday: '31/02/1990' })).toEqual({
      birthday: { key: 'form.dateInvalid' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, phone: '12' })).toEqual({
      phone: { key: 'form.phoneInvalid' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, email: 'lan@' })).toEqual({
      email: { key: 'form.emailInvalid' },
    });
    expect(
      messagesOf(registerSchema, { ...validRegistration, acceptTerms: false, acceptPrivacy: false }),
    ).toEqual({
      acceptTerms: { key: 'form.termsRequired' },
      acceptPrivacy: { key: 'form.privacyRequired' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, purpose: undefined })).toEqual({
      purpose: { key: 'form.chooseOne' },
    });
  });

  it('says "required" for empty text and unchosen selects, and names limits', () => {
    expect(messagesOf(tenantCodeSchema, '  ')).toEqual({ '': { key: 'form.required' } });
    expect(messagesOf(otpGrantSchema.pick({ otp: true }), { otp: '1234' })).toEqual({
      otp: { key: 'form.otpIncomplete' },
    });
    const profile = messagesOf(profileUpdateSchema, {
      firstName: 'Linh',
      lastName: 'N'.repeat(61),
      gender: undefined,
      birthday: '1986-04-12',
      heightCm: 300,
      address: { country: 'Vietnam', line: '' },
    });
    expect(profile).toEqual({
      lastName: { key: 'form.tooLong', values: { maximum: 60 } },
      gender: { key: 'form.chooseOne' },
      heightCm: { key: 'form.below', values: { maximum: 300 } },
      'address.line': { key: 'form.required' },
    });
  });

  it('asks for at least one permission in a role', () => {
    expect(messagesOf(roleInputSchema, { name: 'Role', baseRole: 'COACH', permissions: [] })).toEqual({
      permissions: { key: 'form.chooseAtLeast', values: { count: 1 } },
    });
  });

  it('renders the messages in the current language', () => {
    expect(fieldMessageText({ key: 'form.tooLong', values: { maximum: 60 } })).toBe(
      'Enter at most 60 characters',
    );
    expect(fieldMessageText({ text: 'Từ máy chủ' })).toBe('Từ máy chủ');
    expect(fieldMessageText(undefined)).toBeUndefined();
  });
});

describe('serverFieldMessages', () => {
  it('keys the server’s field errors by form field, with renames, first message per field', () => {
    const error = new ApiError({
      kind: 'validation',
      status: 400,
      request: { method: 'POST', path: '/x' },
      fieldErrors: [
        { field: 'body.address.line', code: 'too_small', message: 'Trường này là bắt buộc' },
        { field: 'body.email', code: 'invalid_format', message: 'Bad email' },
        { field: 'body.newPassword', code: 'tooShort', message: 'Too short' },
        { field: 'body.newPassword', code: 'needsDigit', message: 'Needs a digit' },
      ],
    });
    expect(serverFieldMessages(error, { email: 'destination' })).toEqual({
      'address.line': { text: 'Trường này là bắt buộc' },
      destination: { text: 'Bad email' },
      newPassword: { text: 'Too short' },
    });
    expect(serverFieldMessages(new Error('not an API error'))).toEqual({});
  });
});

describe('messages for names with invisible characters', () => {
  it('explains a refused bidi control and an invisible-only name in the console’s words', () => {
    expect(messagesOf(registerSchema, { ...validRegistration, firstName: 'Eve\u202Eevil' })).toEqual({
      firstName: { key: 'form.invisibleCharacters' },
    });
    expect(messagesOf(registerSchema, { ...validRegistration, lastName: '\u3164' })).toEqual({
      lastName: { key: 'form.blank' },
    });
    expect(fieldMessageText({ key: 'form.invisibleCharacters' })).toBe(
      'Remove invisible or text-direction characters (they can disguise what is shown)',
    );
  });
});
