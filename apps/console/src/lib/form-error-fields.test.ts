import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import { fieldOfError, isFormLevelError } from './form-errors';

const request = { method: 'PUT', path: '/x' };
const FIELD_OF_CODE = { 'center.nameExists': 'name' } as const;
const answer = (code: 'center.nameExists' | 'common.default', fieldErrors: { field: string; code: string; message: string }[] = []) =>
  new ApiError({ kind: 'validation', status: 409, request, code, fieldErrors });

describe('which part of a form an error belongs to', () => {
  it('puts a mapped code on its field, and nothing above the form', () => {
    expect(fieldOfError(answer('center.nameExists'), FIELD_OF_CODE)).toBe('name');
    expect(isFormLevelError(answer('center.nameExists'), FIELD_OF_CODE)).toBe(false);
  });

  it('leaves server field errors on their fields', () => {
    expect(isFormLevelError(answer('common.default', [{ field: 'body.email', code: 'invalid_format', message: 'x' }]), FIELD_OF_CODE)).toBe(false);
  });

  it('shows anything else above the form, including a failure with no answer', () => {
    expect(fieldOfError(answer('common.default'), FIELD_OF_CODE)).toBeUndefined();
    expect(isFormLevelError(answer('common.default'), FIELD_OF_CODE)).toBe(true);
    expect(isFormLevelError(new TypeError('Failed to fetch'), FIELD_OF_CODE)).toBe(true);
    expect(isFormLevelError(null, FIELD_OF_CODE)).toBe(false);
  });
});
