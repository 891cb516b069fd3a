import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption of secrets the server must read back (e.g. a dedicated tenant's database password).
 *
 * AES-256-GCM with a key derived from SECRETS_KEY by HKDF-SHA256 under a purpose label, so every
 * use has its own key and a value sealed for one purpose never opens for another. Each value gets
 * a random 96-bit IV. The text form is versioned, `v1.<iv>.<ciphertext>.<tag>` (base64url), so
 * the scheme can change without guessing what an old value is. Optional associated data (e.g. the
 * tenant id and connection kind) binds a value to its row: copied to another row, it fails to open.
 */
export interface SecretBox {
  seal(plaintext: string, associatedData?: string): string;
  /** Throws SecretBoxError for a tampered value, another key or purpose, or other associated data. */
  open(sealed: string, associatedData?: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PURPOSE_PATTERN = /^[a-z0-9][a-z0-9./-]{2,80}$/;

function deriveKey(secretsKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.from('rpm/secret-box'), Buffer.from(`${VERSION}:${purpose}`), 32));
}

export function createSecretBox(secretsKey: Buffer, purpose: string): SecretBox {
  if (secretsKey.length < 32) throw new Error('the secrets key must be at least 32 bytes');
  if (!PURPOSE_PATTERN.test(purpose)) throw new Error(`invalid secret-box purpose: ${purpose}`);
  const key = deriveKey(secretsKey, purpose);
  return {
    seal(plaintext, associatedData = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), ciphertext.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, associatedData = '') {
      const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
        throw new SecretBoxError('not a sealed value of a known version');
      }
      const ivBytes = Buffer.from(iv, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretBoxError('malformed sealed value');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new SecretBoxError('the sealed value does not open with this key, purpose and associated data', { cause: error });
      }
    },
  };
}
