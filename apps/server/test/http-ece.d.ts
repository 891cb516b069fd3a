/** The part of http_ece (RFC 8188 / 8291 content encoding) the Web Push test decrypts with. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair (the browser's). */
    privateKey: ECDH;
    /** The subscription's auth secret, URL-safe base64. */
    authSecret: string;
  }
  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
