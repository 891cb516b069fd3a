import { describe, expect, it } from 'vitest';
import { isChunkLoadError } from './chunk-load-error';

describe('isChunkLoadError', () => {
  it.each([
    'Failed to fetch dynamically imported module: https://rpm.example/assets/devices-page-Bx1.js',
    'error loading dynamically imported module: https://rpm.example/assets/devices-page-Bx1.js',
    'Importing a module script failed.',
    'Unable to preload CSS for /assets/patient-profile-page-C2.css',
  ])('knows a chunk that did not load: %s', (message) => {
    expect(isChunkLoadError(new TypeError(message))).toBe(true);
  });

  it('leaves other failures to the generic error page', () => {
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isChunkLoadError(new Error('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
