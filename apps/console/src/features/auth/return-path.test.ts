import { describe, expect, it } from 'vitest';
import { readLoginState, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it('returns to the page the user asked for', () => {
    expect(safeReturnPath('/doctor/account?tab=1#top')).toBe('/doctor/account?tab=1#top');
  });

  it('never leaves the site or loops back to the login page', () => {
    expect(safeReturnPath('//evil.example/phish')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath('https://evil.example')).toBe('/');
    expect(safeReturnPath('/login')).toBe('/');
    expect(safeReturnPath('/login?x=1')).toBe('/');
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath(42)).toBe('/');
  });

  it('does not mistake a page that merely starts with "login" for the login page', () => {
    expect(safeReturnPath('/login-history')).toBe('/login-history');
  });
});

describe('readLoginState', () => {
  it('reads the return path and a known notice', () => {
    expect(readLoginState({ from: '/doctor', notice: 'auth.loggedInElsewhere' })).toEqual({
      from: '/doctor',
      notice: 'auth.loggedInElsewhere',
    });
  });

  it('ignores state it does not recognise', () => {
    expect(readLoginState(null)).toEqual({ from: '/', notice: null });
    expect(readLoginState({ notice: '<script>' })).toEqual({ from: '/', notice: null });
  });
});
