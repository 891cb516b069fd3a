import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pwaPlugin } from './build/pwa-plugin';
// Relative: the config is loaded by Node, which runs no TypeScript from a workspace package.
import { startupErrorMessages } from '../../packages/i18n/src/vite-plugin';

/** The app is served by the API server under this path (apps/server/src/app.ts). */
const BASE = '/app/';
/** The API prefixes the Fastify server owns; in dev, Vite forwards them so the app stays same-origin. */
const API_PREFIXES = ['/auth', '/account', '/manage', '/health', '/notification'];
const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: BASE,
  // The console's startup error messages (`errors.json?startup`) are in @rpm/i18n/load, which the
  // app imports too (it fetches the whole `errors` catalogue).
  plugins: [react(), pwaPlugin(BASE), startupErrorMessages()],
  html: {
    // Replaced by a fresh nonce in every copy of index.html the server sends (CSP_NONCE_PLACEHOLDER).
    cspNonce: '__RPM_CSP_NONCE__',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // dist/.vite/manifest.json: read by the bundle size check.
    manifest: true,
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
});
