import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API prefixes the Fastify server owns; in dev, Vite forwards them so the console stays same-origin. */
const API_PREFIXES = ['/auth', '/account', '/manage', '/health', '/notification', '/collector', '/docs'];

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
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
