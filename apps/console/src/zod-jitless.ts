/**
 * What `zod` resolves to in the console's build (vite.config.ts): zod itself, once its
 * configuration for the Content-Security-Policy is set (zod-config.ts, imported first, so every
 * module that builds a schema is evaluated after it). The entry (csp-nonce.ts) then needs no part
 * of zod, and the login page, which validates nothing with zod, loads none of it.
 */
import './zod-config';

export * from 'zod/v4';
export { default } from 'zod/v4';
