import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { startupErrorPart } from './languages';

/**
 * `locales/<language>/errors.json?startup` (load.ts): a module holding only the messages the
 * console fetches before its first screen (STARTUP_ERROR_DOMAINS), so that screen does not wait for
 * every error code's message. Used by the console's build and by the unit tests (vitest.config.ts).
 */
export function startupErrorMessages(): Plugin {
  return {
    name: 'rpm:startup-error-messages',
    enforce: 'pre',
    load(id) {
      const [file = '', query] = id.split('?');
      if (query !== 'startup' || !/[\\/]locales[\\/][\w-]+[\\/]errors\.json$/.test(file)) return null;
      const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(startupErrorPart(catalogue))};`;
    },
  };
}
