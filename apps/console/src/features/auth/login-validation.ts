import { LIMITS } from '@rpm/contracts';

export interface LoginFormValues {
  tenant: string;
  username: string;
  password: string;
  rememberMe: boolean;
}

/** i18n keys (common namespace) of the client-side login messages. */
export type LoginFieldErrorKey =
  | 'validation.tenantRequired'
  | 'validation.usernameRequired'
  | 'validation.usernameInvalid'
  | 'validation.passwordRequired'
  | 'validation.passwordTooLong';

export type LoginFormErrors = Partial<Record<'tenant' | 'username' | 'password', LoginFieldErrorKey>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Phone numbers may be typed with spaces, dots, dashes or brackets and an international "+".
const PHONE_DECORATION = /[\s().-]/g;

/** Email, or a phone number of 3 to 16 digits (spec §5, console). */
export function isEmailOrPhone(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return EMAIL.test(trimmed);
  const digits = trimmed.replace(PHONE_DECORATION, '').replace(/^\+/, '');
  return (
    /^\d+$/.test(digits) && digits.length >= LIMITS.phoneMinDigits && digits.length <= LIMITS.phoneMaxDigits
  );
}

/**
 * Checks what can be checked before asking the server. The password's strength rules apply when
 * one is created, not at sign-in, where only presence and the maximum length are known to hold.
 */
export function validateLoginForm(values: LoginFormValues): LoginFormErrors {
  const errors: LoginFormErrors = {};
  if (values.tenant.trim() === '') errors.tenant = 'validation.tenantRequired';
  if (values.username.trim() === '') errors.username = 'validation.usernameRequired';
  else if (!isEmailOrPhone(values.username)) errors.username = 'validation.usernameInvalid';
  if (values.password === '') errors.password = 'validation.passwordRequired';
  else if (values.password.length > LIMITS.passwordMaxLength) errors.password = 'validation.passwordTooLong';
  return errors;
}

export function hasErrors(errors: LoginFormErrors): boolean {
  return Object.keys(errors).length > 0;
}
