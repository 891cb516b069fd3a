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
    rolldownOptions: {
      output: {
        // Libraries change far less often than the console: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: 'mantine',
              test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-style-singleton|use-callback-ref|use-sidecar|react-textarea-autosize|clsx|tslib)[\\/]/,
            },
            { name: 'vendor', test: /node_modules[\\/]/ },
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
