import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, SecretBoxError } from '../../lib/secret-box.js';

const key = randomBytes(32);

describe('secret box (AES-256-GCM, HKDF key per purpose)', () => {
  it('opens what it sealed, and never shows the plaintext in the sealed text', () => {
    const box = createSecretBox(key, 'tenant-connection/password');
    const sealed = box.seal('p@ss wörd', 'tenant_connections:t1:primary');
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
    expect(sealed).not.toContain('p@ss');
    expect(box.open(sealed, 'tenant_connections:t1:primary')).toBe('p@ss wörd');
  });

  it('uses a fresh IV every time', () => {
    const box = createSecretBox(key, 'tenant-connection/password');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses another purpose, another key, other associated data, a tampered value and unknown versions', () => {
    const box = createSecretBox(key, 'tenant-connection/password');
    const sealed = box.seal('secret', 'row-a');
    expect(() => createSecretBox(key, 'another/purpose').open(sealed, 'row-a')).toThrow(SecretBoxError);
    expect(() => createSecretBox(randomBytes(32), 'tenant-connection/password').open(sealed, 'row-a')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'row-b')).toThrow(SecretBoxError);
    const [version, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => box.open([version, iv, flipped.toString('base64url'), tag].join('.'), 'row-a')).toThrow(SecretBoxError);
    expect(() => box.open(`v2.${iv}.${ciphertext}.${tag}`, 'row-a')).toThrow(SecretBoxError);
    expect(() => box.open('not sealed at all')).toThrow(SecretBoxError);
  });

  it('needs a real key and a purpose label', () => {
    expect(() => createSecretBox(randomBytes(16), 'tenant-connection/password')).toThrow();
    expect(() => createSecretBox(key, '')).toThrow();
  });
});
