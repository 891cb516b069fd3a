import { describe, expect, it } from 'vitest';
import { presetFromHash } from './forgot-password-page';

describe('the welcome link of a new account', () => {
  it('opens the reset at the code step for the tenant and email in the fragment', () => {
    expect(presetFromHash('#tenant=harbor&email=admin%40harbor.example')).toEqual({ tenant: 'harbor', type: 'EMAIL', username: 'admin@harbor.example' });
  });

  it('ignores punctuation a mail client kept on the end of the link', () => {
    expect(presetFromHash('#tenant=harbor&email=admin%40harbor.example,')).toMatchObject({ username: 'admin@harbor.example' });
  });

  it('starts from the beginning without both values', () => {
    expect(presetFromHash('')).toBeNull();
    expect(presetFromHash('#tenant=harbor')).toBeNull();
    expect(presetFromHash('#email=a%40b.example&tenant=%20')).toBeNull();
  });
});
