import { defineConfig } from 'vitest/config';
import { startupErrorMessages } from './packages/i18n/src/vite-plugin';

// Three tiers, one run: fast unit tests, integration tests on real PostgreSQL (one database per
// test file), and browser tests driving the built console against a real server.
export default defineConfig({
  test: {
    reporters: ['default', './tools/summary-reporter.ts'],
    projects: [
      {
        // The console's startup error messages (`errors.json?startup`), as its build cuts them.
        plugins: [startupErrorMessages()],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tools/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['apps/server/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['./apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['./apps/server/test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A browser flow on a loaded 2-core machine can stall on timing (an animation, a toast);
          // one retry keeps such a stall from failing the run. A flow that fails twice fails.
          retry: 1,
          // Each file starts its own server and browser; two at once suit a 2-core machine, and
          // they run after the other projects (a later group) so they do not compete for CPU.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // A page may take more than the default second to update on a loaded 2-core machine.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
