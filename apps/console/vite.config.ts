import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// Relative: the config is loaded by Node, which runs no TypeScript from a workspace package.
import { startupErrorMessages } from '../../packages/i18n/src/vite-plugin';

/** The API prefixes the Fastify server owns; in dev, Vite forwards them so the console stays same-origin. */
const API_PREFIXES = ['/auth', '/account', '/manage', '/health', '/notification', '/collector', '/docs'];

const apiTarget = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

/** A Mantine component's class-name module, `@mantine/core/esm/components/<…>/<Name>.module.mjs`. */
const MANTINE_CLASSES = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/;

/**
 * Mantine's stylesheet per component instead of the whole of `@mantine/core/styles.css`: each
 * component's class-name module imports that component's own stylesheet
 * (`@mantine/core/styles/<Name>.css`), so the CSS lands in the chunk that uses the component and a
 * screen downloads the styles of the components it shows. A component imports the components it is
 * built from first, so their rules come first, in the order of Mantine's whole stylesheet.
 * main.tsx imports the global part (baseline, variables, global classes).
 *
 * The dev server pre-bundles Mantine into one file, where no class-name module is seen: it loads
 * the whole stylesheet instead.
 */
function mantineStylesPerComponent(): Plugin {
  let isDevServer = false;
  return {
    name: 'rpm:mantine-styles-per-component',
    enforce: 'pre',
    configResolved(config) {
      isDevServer = config.command === 'serve';
    },
    transform(code, id) {
      if (isDevServer) {
        return id.endsWith('/src/main.tsx') ? `import '@mantine/core/styles.css';\n${code}` : null;
      }
      const name = MANTINE_CLASSES.exec(id)?.[1];
      return name ? `import '@mantine/core/styles/${name}.css';\n${code}` : null;
    },
  };
}

export default defineConfig({
  plugins: [react(), mantineStylesPerComponent(), startupErrorMessages()],
  resolve: {
    alias: [
      // Every `import … from 'zod'` (the console's and @rpm/contracts') gets zod configured for the
      // Content-Security-Policy first (src/zod-jitless.ts); `zod/…` subpaths are zod's own.
      { find: /^zod$/, replacement: fileURLToPath(new URL('src/zod-jitless.ts', import.meta.url)) },
    ],
  },
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
