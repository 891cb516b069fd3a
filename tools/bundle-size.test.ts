import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AREA_HOME,
  AREA_SHELL,
  BUDGETS,
  catalogueFiles,
  CONSOLE_DIST,
  ENTRY,
  firstLoadFiles,
  formatTable,
  type Manifest,
  NOT_PAGES,
  overBudget,
  PUBLIC_PAGE_PARTS,
  PUBLIC_PAGES,
  readManifest,
  roleAreas,
  type ScreenWeight,
  weighScreens,
  createGzipSizer,
} from './bundle-size';
import { NAMESPACES, SUPPORTED_LANGUAGES } from '@rpm/i18n/load';

/** A build in miniature: the entry, a shared chunk, a lazy page with its own library and stylesheet. */
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    css: ['assets/index.css'],
    dynamicImports: ['src/features/auth/login-page.tsx', 'src/features/patients/patient-profile-page.tsx'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_charts.js': { file: 'assets/charts.js', imports: ['_react.js'], css: ['assets/charts.css'] },
  'src/features/auth/login-page.tsx': {
    file: 'assets/login-page.js',
    isDynamicEntry: true,
    imports: ['_react.js'],
  },
  'src/features/patients/patient-profile-page.tsx': {
    file: 'assets/patient-profile-page.js',
    isDynamicEntry: true,
    imports: ['_charts.js'],
    dynamicImports: ['src/features/health/ecg-panel.tsx'],
  },
  'src/features/health/ecg-panel.tsx': { file: 'assets/ecg-panel.js', isDynamicEntry: true },
};

function screen(name: string, js: number, css = 0): ScreenWeight {
  return { screen: name, modules: [], catalogues: [], files: [], js, css };
}

describe('first-load files from the build manifest', () => {
  it('follow static imports and their stylesheets, not dynamic imports', () => {
    expect(firstLoadFiles(MANIFEST, [ENTRY])).toEqual([
      'assets/index.css',
      'assets/index.js',
      'assets/react.js',
    ]);
    expect(firstLoadFiles(MANIFEST, [ENTRY, 'src/features/patients/patient-profile-page.tsx'])).toEqual([
      'assets/charts.css',
      'assets/charts.js',
      'assets/index.css',
      'assets/index.js',
      'assets/patient-profile-page.js',
      'assets/react.js',
    ]);
  });

  it('refuse a module that is not its own chunk, rather than weigh too little', () => {
    expect(() => firstLoadFiles(MANIFEST, [ENTRY, 'src/features/devices/devices-page.tsx'])).toThrow(
      /not in the build manifest/,
    );
    expect(() => catalogueFiles(MANIFEST, ['common'], () => 1)).toThrow(/not in the build manifest/);
  });

  it('weigh every screen of a split build, and only the entry of an unsplit one', () => {
    const sizes: Record<string, number> = {
      'assets/index.js': 100,
      'assets/react.js': 50,
      'assets/index.css': 7,
      'assets/login-page.js': 5,
    };
    const manifest: Manifest = {
      ...MANIFEST,
      ...Object.fromEntries(
        [
          ...Object.values(PUBLIC_PAGES),
          ...Object.values(PUBLIC_PAGE_PARTS).flat(),
          ...AREA_SHELL,
          AREA_HOME,
        ].map((module) => [module, { file: 'assets/login-page.js', isDynamicEntry: true }]),
      ),
      ...Object.fromEntries(
        SUPPORTED_LANGUAGES.flatMap((language) =>
          NAMESPACES.map((namespace) => [
            `../../packages/i18n/locales/${language}/${namespace}.json`,
            { file: `assets/${language}-${namespace}.js`, isDynamicEntry: true },
          ]),
        ),
      ),
      ...Object.fromEntries(
        SUPPORTED_LANGUAGES.map((language) => [
          `../../packages/i18n/locales/${language}/errors.json?startup`,
          { file: `assets/${language}-errors-startup.js`, isDynamicEntry: true },
        ]),
      ),
    };
    // vi's catalogues weigh more than en's: a screen is weighed with them.
    sizes['assets/en-common.js'] = 10;
    sizes['assets/vi-common.js'] = 12;
    sizes['assets/en-errors.js'] = 3;
    sizes['assets/vi-errors.js'] = 4;
    sizes['assets/en-errors-startup.js'] = 2;
    sizes['assets/vi-errors-startup.js'] = 3;
    const weights = weighScreens(manifest, (file) => sizes[file] ?? 1);
    const login = weights.find((weight) => weight.screen === '/login');
    // The console fetches the startup part of `errors` before a screen, not the whole catalogue.
    expect(login).toMatchObject({ js: 155 + 12 + 3, css: 7 });
    expect(login?.files).toContain('assets/vi-common.js');
    expect(login?.files).not.toContain('assets/en-common.js');
    expect(login?.files).not.toContain('assets/vi-errors.js');
    // A staff screen also waits for the staff shell's catalogues.
    const doctor = weights.find((weight) => weight.screen === '/doctor');
    expect(doctor?.files).toEqual(expect.arrayContaining(['assets/vi-patients.js', 'assets/vi-realtime.js']));
    expect(doctor?.files).not.toContain('assets/vi-health.js');
    expect(weights.map((weight) => weight.screen)).toEqual(
      expect.arrayContaining([
        '/doctor',
        '/admin',
        '/operator',
        'page patient-profile-page',
        'page ecg-panel',
      ]),
    );
    // The login page's lazily shown forms are weighed with the login page, not as staff pages.
    expect(weights.find((weight) => weight.screen === '/login?method=otp')?.files).toContain(
      'assets/vi-common.js',
    );
    expect(weights.some((weight) => weight.screen === 'page otp-login-form')).toBe(false);
    const unsplit = weighScreens(manifest, (file) => sizes[file] ?? 1, { unsplit: true });
    expect(unsplit.find((weight) => weight.screen === '/doctor')).toMatchObject({ js: 150, css: 7 });
    expect(unsplit.some((weight) => weight.screen.startsWith('page '))).toBe(false);
  });

  it('name every role area', () => {
    expect(roleAreas()).toEqual(
      expect.arrayContaining([
        'root',
        'sadmin',
        'admin',
        'smadmin',
        'operator',
        'cskh',
        'doctor',
        'doctor-assistant',
        'coach',
        'user',
      ]),
    );
  });

  it('fail the login screen on JavaScript alone and an area screen on JavaScript and CSS', () => {
    const budgets = { loginJsKb: 200, areaFirstScreenKb: 350, staffPageKb: 400 };
    expect(
      overBudget([screen('/login', 200_000, 90_000), screen('/doctor', 300_000, 50_000)], budgets),
    ).toEqual([]);
    expect(overBudget([screen('/login', 200_001)], budgets)).toEqual([
      '/login needs 200.0 KB of gzipped JavaScript (budget 200 KB)',
    ]);
    expect(overBudget([screen('/doctor', 300_000, 50_001)], budgets)).toHaveLength(1);
    // A staff page opened by its address has its own ceiling.
    expect(overBudget([screen('page patient-profile-page', 350_001)], budgets)).toEqual([]);
    expect(overBudget([screen('page patient-profile-page', 400_001)], budgets)).toEqual([
      'page patient-profile-page needs 400.0 KB gzipped (JS 400.0 + CSS 0.0; budget 400 KB)',
    ]);
    // Public pages other than login, and the parts of login shown later, are weighed and shown,
    // not held to a budget.
    expect(overBudget([screen('/register', 400_000)], budgets)).toEqual([]);
    expect(overBudget([screen('/login?method=otp', 400_000)], budgets)).toEqual([]);
  });
});

const manifest = readManifest();
// `npm test` builds first; a unit-only run without a build skips, anything else must not.
const isFullTestRun = process.env.npm_lifecycle_event === 'test';

describe.runIf(manifest !== null || isFullTestRun)(
  manifest
    ? 'the built console (apps/console/dist)'
    : 'the built console: not built, run "npm run build -w @rpm/console"',
  () => {
    const built = (): Manifest => {
      if (!manifest)
        throw new Error(`no ${CONSOLE_DIST}/.vite/manifest.json: "npm test" must build the console first`);
      return manifest;
    };

    it('loads each page as its own chunk, none of them with the entry', () => {
      const entryFiles = new Set(firstLoadFiles(built(), [ENTRY]));
      const modules = [
        ...Object.values(PUBLIC_PAGES),
        ...Object.values(PUBLIC_PAGE_PARTS).flat(),
        ...AREA_SHELL,
        AREA_HOME,
      ];
      for (const module of modules) {
        const chunk = built()[module];
        expect(chunk?.isDynamicEntry, module).toBe(true);
        expect(entryFiles.has(chunk?.file ?? ''), module).toBe(false);
      }
    });

    it('keeps every first screen within its budget', () => {
      const screens = weighScreens(built(), createGzipSizer());
      console.info(`Console first load, gzipped (budgets in tools/bundle-size.ts):\n${formatTable(screens)}`);
      expect(overBudget(screens, BUDGETS)).toEqual([]);
    });

    it('fetches the toast container and the SOS popup alongside the first screen, not before it', () => {
      const screens = weighScreens(built(), createGzipSizer());
      for (const module of NOT_PAGES) {
        const chunk = built()[module];
        expect(chunk?.isDynamicEntry, module).toBe(true);
        for (const name of ['/login', '/doctor']) {
          const screen = screens.find((candidate) => candidate.screen === name);
          expect(screen?.files, `${name} ${module}`).not.toContain(chunk?.file);
        }
      }
    });

    it('loads no zod before the login page is drawn', () => {
      const login = weighScreens(built(), createGzipSizer()).find((screen) => screen.screen === '/login');
      const code = (login?.files ?? [])
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(path.join(CONSOLE_DIST, file), 'utf8'))
        .join('\n');
      // zod's error class and its JSON Schema converter name themselves in the built code.
      expect(code).not.toContain('ZodError');
      expect(code).not.toContain('jitless');
    });

    it("loads Mantine's styles per component, with the screens that show the component", () => {
      const requireFromTools = createRequire(import.meta.url);
      // The first class a component's stylesheet styles (Mantine's class names are fixed per release).
      const firstClass = (component: string): string => {
        const css = readFileSync(requireFromTools.resolve(`@mantine/core/styles/${component}.css`), 'utf8');
        const found = /\.(m_[0-9a-f]+)/.exec(css)?.[1];
        if (!found) throw new Error(`no class in ${component}.css`);
        return found;
      };
      const screens = weighScreens(built(), createGzipSizer());
      const stylesOf = (name: string): string =>
        (screens.find((screen) => screen.screen === name)?.files ?? [])
          .filter((file) => file.endsWith('.css'))
          .map((file) => readFileSync(path.join(CONSOLE_DIST, file), 'utf8'))
          .join('\n');
      const login = stylesOf('/login');
      const doctor = stylesOf('/doctor');
      expect(login).toContain(firstClass('Button'));
      expect(login).toContain(firstClass('Input'));
      expect(login).not.toContain(firstClass('AppShell'));
      expect(login).not.toContain(firstClass('Table'));
      expect(doctor).toContain(firstClass('AppShell'));
      expect(doctor).toContain(firstClass('Button'));
    });

    it('ships no source maps', () => {
      const assets = path.join(CONSOLE_DIST, 'assets');
      for (const file of readdirSync(assets)) {
        expect(file.endsWith('.map'), file).toBe(false);
        if (file.endsWith('.js'))
          expect(readFileSync(path.join(assets, file), 'utf8'), file).not.toContain('sourceMappingURL');
      }
    });
  },
);
