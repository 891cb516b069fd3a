import { describe, expect, it } from 'vitest';
import {
  createGzipSizer,
  kb,
  PATIENT_BUDGETS,
  PATIENT_DIST,
  readManifest,
  weighPatientFirstScreen,
} from './bundle-size';

const manifest = readManifest(PATIENT_DIST);
// `npm test` builds first; a unit-only run without a build skips, anything else must not.
const isFullTestRun = process.env.npm_lifecycle_event === 'test';

describe.runIf(manifest !== null || isFullTestRun)('the built patient app (apps/patient/dist)', () => {
  it(`loads its first screen with at most ${PATIENT_BUDGETS.firstScreenJsKb} KB of gzipped JavaScript`, () => {
    if (!manifest) throw new Error(`no ${PATIENT_DIST}/.vite/manifest.json: "npm test" must build the app first`);
    const screen = weighPatientFirstScreen(manifest, createGzipSizer(PATIENT_DIST));
    // The startup catalogues are counted with the code.
    expect(screen.files.some((file) => file.includes('patient'))).toBe(true);
    expect(screen.js, `${kb(screen.js)} KB`).toBeLessThanOrEqual(PATIENT_BUDGETS.firstScreenJsKb * 1000);
  });
});
