import { afterEach, expect, it, vi } from 'vitest';
import { newBatchId } from './batch-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
});

it('makes batch ids the collector accepts (UUID v4), different each time', () => {
  const ids = new Set(Array.from({ length: 50 }, () => newBatchId()));
  expect(ids.size).toBe(50);
  for (const id of ids) expect(id).toMatch(UUID_V4);
});

it('sets the version and variant bits whatever the random bytes are', () => {
  expect(newBatchId((bytes) => bytes.fill(0xff))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  expect(newBatchId((bytes) => bytes.fill(0))).toBe('00000000-0000-4000-8000-000000000000');
});

it('works where crypto.randomUUID is missing (a page over plain http is not a secure context)', () => {
  vi.stubGlobal('crypto', { getRandomValues: <T extends Uint8Array>(bytes: T) => bytes.fill(0xab) });
  expect(newBatchId()).toBe('abababab-abab-4bab-abab-abababababab');
});
