import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API prefixes the Fastify server owns; in dev, Vite forwards them so the console stays same-origin. */
const API_PREFIXES = ['/auth', '/account', '/manage', '/health', '/notification', '/collector', '/docs'];

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  html: {
    // index.html carries this placeholder (a meta tag and nonce attributes); the server replaces it
    // with a fresh nonce in every copy it sends (CSP_NONCE_PLACEHOLDER in apps/server/src/http/security-headers.ts).
    cspNonce: '__RPM_CSP_NONCE__',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the served build: they would publish the console's source.
    sourcemap: false,
    // dist/.vite/manifest.json: the chunks and CSS each module needs, read by the bundle size check.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Every screen needs React and the router, and they change far less often than the
            // console: one chunk that stays cached across releases. Other libraries are not grouped:
            // a group is one file that every screen using any of it must load, and Mantine's
            // components (or the charts) would then all come with the login page.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      API_PREFIXES.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }]),
    ),
  },
});
