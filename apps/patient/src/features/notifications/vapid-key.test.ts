import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyBytes } from './vapid-key';

describe('keyBytes', () => {
  it('reads a P-256 public key in URL-safe base64 without padding', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const raw = publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(raw.x ?? '', 'base64url'), Buffer.from(raw.y ?? '', 'base64url')]);
    const bytes = keyBytes(point.toString('base64url'));
    expect(bytes).toHaveLength(65);
    expect(Buffer.from(bytes).equals(point)).toBe(true);
  });

  it('reads the characters that differ from plain base64', () => {
    expect([...keyBytes('-_8')]).toEqual([0xfb, 0xff]);
    expect([...keyBytes('-_-_')]).toEqual([0xfb, 0xff, 0xbf]);
  });
});
