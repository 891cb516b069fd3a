import { createHash, randomBytes } from 'node:crypto';

/** Opaque bearer token: 256 random bits. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
