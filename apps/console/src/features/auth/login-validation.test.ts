import { describe, expect, it } from 'vitest';
import { isEmailOrPhone, validateLoginForm } from './login-validation';

const valid = { tenant: 'demo', username: 'doctor@demo.example', password: 'Demo@2026', rememberMe: false };

describe('isEmailOrPhone', () => {
  it('accepts emails and phone numbers of 3 to 16 digits', () => {
    expect(isEmailOrPhone('doctor@demo.example')).toBe(true);
    expect(isEmailOrPhone('0901234567')).toBe(true);
    expect(isEmailOrPhone('+84 90 123 4567')).toBe(true);
    expect(isEmailOrPhone('(028) 3812-3456')).toBe(true);
    expect(isEmailOrPhone('123')).toBe(true);
  });

  it('refuses malformed emails, short or long numbers and words', () => {
    expect(isEmailOrPhone('doctor@')).toBe(false);
    expect(isEmailOrPhone('doctor@demo')).toBe(false);
    expect(isEmailOrPhone('12')).toBe(false);
    expect(isEmailOrPhone('12345678901234567')).toBe(false);
    expect(isEmailOrPhone('doctor')).toBe(false);
    expect(isEmailOrPhone('09o1234567')).toBe(false);
  });
});

describe('validateLoginForm', () => {
  it('passes a complete form', () => {
    expect(validateLoginForm(valid)).toEqual({});
  });

  it('names every missing field', () => {
    expect(validateLoginForm({ tenant: ' ', username: '', password: '', rememberMe: true })).toEqual({
      tenant: 'validation.tenantRequired',
      username: 'validation.usernameRequired',
      password: 'validation.passwordRequired',
    });
  });

  it('explains a username that is neither an email nor a phone number', () => {
    expect(validateLoginForm({ ...valid, username: 'doctor' })).toEqual({
      username: 'validation.usernameInvalid',
    });
  });

  it('refuses a password longer than the 32 characters any account can have', () => {
    expect(validateLoginForm({ ...valid, password: 'A'.repeat(33) })).toEqual({
      password: 'validation.passwordTooLong',
    });
    expect(validateLoginForm({ ...valid, password: 'A'.repeat(32) })).toEqual({});
  });
});
