/**
 * The console's first-load weight per route, from the build's own manifest (apps/console/dist,
 * `build.manifest: true`): the entry (index.html) plus the modules a route loads lazily, and every
 * chunk and stylesheet they import statically, with the message catalogues fetched before the
 * screen is drawn, gzipped one file at a time as a browser fetches them.
 *
 *   npm run build -w @rpm/console && npx tsx tools/bundle-size.ts
 *
 * prints a table and exits 1 when a screen is over its budget; tools/bundle-size.test.ts runs the
 * same check under `npm test`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROLE_CODES, areaOfRole, type RoleArea } from '@rpm/contracts';
import {
  STAFF_SHELL_NAMESPACES,
  STARTUP_NAMESPACES,
  SUPPORTED_LANGUAGES,
  type Namespace,
} from '@rpm/i18n/load';

/** One entry of Vite's `.vite/manifest.json`. */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

export const CONSOLE_DIST = path.resolve(import.meta.dirname, '../apps/console/dist');
export const MANIFEST_PATH = '.vite/manifest.json';

/** The document every visit starts from. */
export const ENTRY = 'index.html';

/** Public pages: the entry plus the page's own module (routes.tsx). */
export const PUBLIC_PAGES = {
  login: 'src/features/auth/login-page.tsx',
  'forgot-password': 'src/features/auth/forgot-password-page.tsx',
  register: 'src/features/auth/register-page.tsx',
  'trial-request': 'src/features/trial-request/trial-request-page.tsx',
  privacy: 'src/features/legal/privacy-terms.tsx',
  terms: 'src/features/legal/terms-page.tsx',
} as const;

/**
 * Parts of a public page fetched when they are first shown (features/auth/lazy-forms.tsx): weighed
 * as the page with the part, and not held to the login budget, which is about the first screen.
 */
export const PUBLIC_PAGE_PARTS = {
  '/login?method=otp': ['src/features/auth/login-page.tsx', 'src/features/auth/otp-login-form.tsx'],
  '/login (unlocking an account)': ['src/features/auth/login-page.tsx', 'src/features/auth/unlock-form.tsx'],
  // The tenant lookups (by the console's address as the page opens, by a typed code) and signing in
  // check their answers with the contracts' schemas, fetched with the first call (auth-api.ts): zod
  // arrives after the page is drawn.
  '/login (answers checked)': ['src/features/auth/login-page.tsx', 'src/features/auth/auth-schemas.ts'],
} as const;

/**
 * Lazily loaded modules that are no page, fetched alongside the first screen rather than before it:
 * the toast container (app.tsx), the SOS popup (features/realtime/live-layer.tsx) and the
 * announcement editor (fetched once the compose form is drawn, which stays usable meanwhile).
 */
export const NOT_PAGES: readonly string[] = [
  'src/toast-container.ts',
  'src/features/realtime/sos-popup.tsx',
  'src/features/announcements/announcement-editor.tsx',
];

/** The public page a screen belongs to ("login" for "/login?method=otp"), if it is one. */
function publicPageOf(screen: string): string | undefined {
  const page = screen.slice(1).split(/[?\s]/)[0] ?? '';
  return screen.startsWith('/') && Object.hasOwn(PUBLIC_PAGES, page) ? page : undefined;
}

/**
 * Every page inside a role area loads the staff routes with the startup sequence and the staff
 * shell (staff-routes.tsx, added to the router on the first staff address, routes.tsx), and the
 * startup calls' answer schemas (features/auth/auth-schemas.ts), which the startup sequence waits for.
 */
export const AREA_SHELL = ['src/staff-routes.tsx', 'src/features/auth/auth-schemas.ts'];

/** The first screen of every area: the area home (routes.tsx, the index route of each area). */
export const AREA_HOME = 'src/features/shell/area-home-page.tsx';

/**
 * Ceilings in gzipped kilobytes (1 KB = 1,000 bytes, as `gzip -c | wc -c` is read), so growth fails
 * the build. The login page is held to its JavaScript; an area's first screen, and any staff page
 * opened directly by its address, to JavaScript and CSS. The login page and an area's first screen
 * are held to their targets (TARGETS).
 *
 * They had been raised to 215.5 and 359.5 KB by the error codes whose en and vi messages rode in
 * the startup load and by the lazy routes of new pages, whose entries (with the lists of chunks
 * each preloads) sat in the entry. What brought them back (tools/bench/RESULTS.md): the console
 * fetches only the startup part of the `errors` catalogue before a first screen
 * (STARTUP_ERROR_DOMAINS in @rpm/i18n: `common` and `auth`), and the rest with any other page or
 * before a failure's message is shown (apps/console/src/i18n.ts); the signed-in console's route
 * table, with the startup sequence and the staff shell, is its own chunk, added to the router on
 * the first staff address (apps/console/src/staff-routes.tsx), so a new page or error code adds
 * nothing to the login page and only its route entry to an area's first screen.
 */
export const BUDGETS = {
  loginJsKb: 200,
  areaFirstScreenKb: 350,
  staffPageKb: 475,
} as const;

/**
 * Where the budgets should go (ARCHITECTURE.md: login ≤ 200 KB, an area's first screen ≤ 350 KB,
 * met), and a staff page opened by its address, which still loads the startup sequence and the
 * staff shell with the page: 350 KB is missed by the heavier pages (the patient profile, the tenant
 * detail, the account page). What the login page loads: React with React Router (97 KB), i18next
 * with react-i18next (18 KB), Mantine's core (10 KB), the entry (27 KB: TanStack Query's client,
 * Mantine's provider, the theme, the public pages' routes), the form's components and the `common`
 * catalogue with the startup error messages (7 KB in vi). tools/bench/RESULTS.md has the figures.
 */
export const TARGETS = {
  loginJsKb: 200,
  areaFirstScreenKb: 350,
  staffPageKb: 350,
} as const;

export type Budgets = Record<keyof typeof BUDGETS, number>;

export interface Weight {
  js: number;
  css: number;
}

export interface ScreenWeight extends Weight, Screen {
  files: string[];
}

export function readManifest(distDir = CONSOLE_DIST): Manifest | null {
  const file = path.join(distDir, MANIFEST_PATH);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/**
 * The files a browser must fetch before the given manifest entries can run: each entry's chunk,
 * its static imports (recursively) and their stylesheets. Dynamic imports are left out: they
 * load later, when a route needs them, or (the toast container, app.tsx) alongside the first screen
 * without holding it up.
 */
export function firstLoadFiles(manifest: Manifest, keys: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest: is it still its own chunk?`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files].sort();
}

/** Gzipped size of each file (default level, as `gzip -c`), cached per file. */
export function createGzipSizer(distDir = CONSOLE_DIST): (file: string) => number {
  const sizes = new Map<string, number>();
  return (file) => {
    let size = sizes.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(distDir, file))).length;
      sizes.set(file, size);
    }
    return size;
  };
}

export function weighFiles(files: readonly string[], sizeOf: (file: string) => number): Weight {
  const weight = { js: 0, css: 0 };
  for (const file of files) {
    if (file.endsWith('.css')) weight.css += sizeOf(file);
    else if (file.endsWith('.js')) weight.js += sizeOf(file);
  }
  return weight;
}

/** Role areas (spec §2 path prefixes) in the order the role catalogue names them. */
export function roleAreas(): RoleArea[] {
  return [...new Set(ROLE_CODES.map(areaOfRole))];
}

/** The console's lazily loaded modules (pages and layouts): each its own chunk, loaded by a dynamic import. */
export function pageModules(manifest: Manifest): string[] {
  return Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry === true && key.startsWith('src/'))
    .map(([key]) => key)
    .sort();
}

/**
 * The screens to weigh: login and the other public pages; each area's first screen; and every
 * other lazily loaded page as opened directly by its address (inside the staff shell).
 * `unsplit` weighs a build whose routes are not split yet: every screen is then the entry alone.
 */
export interface Screen {
  screen: string;
  modules: string[];
  /** Catalogues fetched before the screen is drawn (apps/console/src/i18n.ts), in the user's language. */
  catalogues: Namespace[];
}

/**
 * How a screen's catalogues are fetched: the console fetches only the startup part of `errors`
 * before its first screens (`errors.json?startup`, STARTUP_ERROR_DOMAINS in @rpm/i18n), the
 * patient app the whole file.
 */
export interface CatalogueOptions {
  startupErrors?: boolean;
}

/** The build manifest's key of one catalogue (packages/i18n/src/load.ts imports each on its own). */
export function catalogueModule(
  manifest: Manifest,
  language: string,
  namespace: Namespace,
  options: CatalogueOptions = {},
): string {
  const part = namespace === 'errors' && options.startupErrors === true ? '?startup' : '';
  const suffix = `/locales/${language}/${namespace}.json${part}`;
  const key = Object.keys(manifest).find((candidate) => candidate.endsWith(suffix));
  if (key === undefined)
    throw new Error(`${suffix} is not in the build manifest: is it still its own chunk?`);
  return key;
}

/**
 * The files of a screen's catalogues in the language whose catalogues weigh most (vi), so the
 * figures hold for either language.
 */
export function catalogueFiles(
  manifest: Manifest,
  namespaces: readonly Namespace[],
  sizeOf: (file: string) => number,
  options: CatalogueOptions = {},
): string[] {
  if (namespaces.length === 0) return [];
  const perLanguage = SUPPORTED_LANGUAGES.map((language) =>
    firstLoadFiles(
      manifest,
      namespaces.map((namespace) => catalogueModule(manifest, language, namespace, options)),
    ),
  );
  const weightOf = (files: string[]) => files.reduce((sum, file) => sum + sizeOf(file), 0);
  return perLanguage.reduce((heaviest, files) => (weightOf(files) > weightOf(heaviest) ? files : heaviest));
}

export function screensOf(manifest: Manifest, options: { unsplit?: boolean } = {}): Screen[] {
  const entryOnly = (modules: string[]) => (options.unsplit ? [ENTRY] : [ENTRY, ...modules]);
  // An unsplit build bundles every catalogue with the entry.
  const catalogues = (namespaces: readonly Namespace[]): Namespace[] =>
    options.unsplit ? [] : [...namespaces];
  const publicModules = new Set<string>([
    ...Object.values(PUBLIC_PAGES),
    ...Object.values(PUBLIC_PAGE_PARTS).flat(),
    ...NOT_PAGES,
  ]);
  const staffCatalogues = catalogues([...STARTUP_NAMESPACES, ...STAFF_SHELL_NAMESPACES]);
  const screens: Screen[] = [
    ...Object.entries(PUBLIC_PAGES).map(([name, module]) => ({
      screen: `/${name}`,
      modules: entryOnly([module]),
      catalogues: catalogues(STARTUP_NAMESPACES),
    })),
    ...(options.unsplit
      ? []
      : Object.entries(PUBLIC_PAGE_PARTS).map(([name, modules]) => ({
          screen: name,
          modules: [ENTRY, ...modules],
          catalogues: catalogues(STARTUP_NAMESPACES),
        }))),
    ...roleAreas().map((area) => ({
      screen: `/${area}`,
      modules: entryOnly([...AREA_SHELL, AREA_HOME]),
      catalogues: staffCatalogues,
    })),
  ];
  if (!options.unsplit) {
    for (const module of pageModules(manifest)) {
      if (publicModules.has(module) || AREA_SHELL.includes(module) || module === AREA_HOME) continue;
      screens.push({
        screen: `page ${path.basename(module, '.tsx')}`,
        modules: [ENTRY, ...AREA_SHELL, module],
        catalogues: staffCatalogues,
      });
    }
  }
  return screens;
}

export function weighScreens(
  manifest: Manifest,
  sizeOf: (file: string) => number,
  options: { unsplit?: boolean } = {},
): ScreenWeight[] {
  return screensOf(manifest, options).map(({ screen, modules, catalogues }) => {
    const files = [
      ...new Set([
        ...firstLoadFiles(manifest, modules),
        ...catalogueFiles(manifest, catalogues, sizeOf, { startupErrors: true }),
      ]),
    ].sort();
    return { screen, modules, catalogues, files, ...weighFiles(files, sizeOf) };
  });
}

/** Budget failures as sentences; empty when every screen is within its budget. */
export function overBudget(
  screens: readonly ScreenWeight[],
  budgets: Budgets = BUDGETS,
  label = 'budget',
): string[] {
  const failures: string[] = [];
  for (const screen of screens) {
    if (screen.screen === '/login' && screen.js > budgets.loginJsKb * 1000) {
      failures.push(
        `/login needs ${kb(screen.js)} KB of gzipped JavaScript (${label} ${budgets.loginJsKb} KB)`,
      );
    }
    if (publicPageOf(screen.screen) !== undefined) continue;
    const ceiling = screen.screen.startsWith('page ') ? budgets.staffPageKb : budgets.areaFirstScreenKb;
    if (screen.js + screen.css > ceiling * 1000) {
      failures.push(
        `${screen.screen} needs ${kb(screen.js + screen.css)} KB gzipped (JS ${kb(screen.js)} + CSS ${kb(screen.css)}; ${label} ${ceiling} KB)`,
      );
    }
  }
  return failures;
}

/** The patient app's build (apps/patient/dist, `build.manifest: true` too). */
export const PATIENT_DIST = path.resolve(import.meta.dirname, '../apps/patient/dist');

/** Catalogues the patient app fetches before its first screen (apps/patient/src/i18n.ts). */
export const PATIENT_STARTUP_NAMESPACES = ['patient', 'errors'] as const satisfies readonly Namespace[];

/** The patient app's first screen (login or home, both in its entry): at most 200 KB of gzipped JavaScript. */
export const PATIENT_BUDGETS = { firstScreenJsKb: 200 } as const;

/** The patient app's first screen: its entry with what it imports and its startup catalogues. */
export function weighPatientFirstScreen(manifest: Manifest, sizeOf: (file: string) => number): ScreenWeight {
  const modules = [ENTRY];
  const catalogues = [...PATIENT_STARTUP_NAMESPACES];
  const files = [
    ...new Set([...firstLoadFiles(manifest, modules), ...catalogueFiles(manifest, catalogues, sizeOf)]),
  ].sort();
  return { screen: '/app/', modules, catalogues, files, ...weighFiles(files, sizeOf) };
}

export function kb(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

export function formatTable(screens: readonly ScreenWeight[]): string {
  const rows = screens.map(
    (screen) =>
      `| ${screen.screen} | ${kb(screen.js)} | ${kb(screen.css)} | ${kb(screen.js + screen.css)} | ${screen.files.length} |`,
  );
  return ['| screen | JS KB | CSS KB | total KB | files |', '|---|---:|---:|---:|---:|', ...rows].join('\n');
}

function main(): void {
  const manifest = readManifest();
  if (!manifest) {
    console.error(`No ${MANIFEST_PATH} in ${CONSOLE_DIST}: run "npm run build -w @rpm/console" first.`);
    process.exit(2);
  }
  const unsplit = process.argv.includes('--unsplit');
  const screens = weighScreens(manifest, createGzipSizer(), { unsplit });
  console.log(formatTable(screens));
  const failures = overBudget(screens);
  const patientManifest = readManifest(PATIENT_DIST);
  if (patientManifest) {
    const app = weighPatientFirstScreen(patientManifest, createGzipSizer(PATIENT_DIST));
    console.log(`patient app ${app.screen}: JS ${kb(app.js)} KB, CSS ${kb(app.css)} KB gzipped`);
    if (app.js > PATIENT_BUDGETS.firstScreenJsKb * 1000)
      failures.push(
        `the patient app's first screen needs ${kb(app.js)} KB of gzipped JavaScript (budget ${PATIENT_BUDGETS.firstScreenJsKb} KB)`,
      );
  }
  for (const failure of overBudget(screens, TARGETS, 'target')) console.log(`above target: ${failure}`);
  for (const failure of failures) console.error(`over budget: ${failure}`);
  process.exit(failures.length > 0 ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
