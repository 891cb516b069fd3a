import { setNonce } from 'get-nonce';

/**
 * The nonce the server wrote into this copy of index.html (the build puts
 * `<meta property="csp-nonce" nonce="…">` there, see html.cspNonce in vite.config.ts). Style
 * elements added at run time (Mantine's theme variables and responsive styles, the scroll lock
 * of dialogs) must carry it: the Content-Security-Policy allows no other inline style element.
 * Empty when the page has none; under the Vite dev server (which sends no policy) it is the
 * build's placeholder, which does no harm.
 */
export function cspNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';
}

/*
 * Prepares libraries for the Content-Security-Policy when this module is evaluated: main.tsx
 * imports it first, before any schema is built or anything renders.
 */
const nonce = cspNonce();
// react-remove-scroll (Mantine's dialogs and drawers) adds its style element with this nonce.
if (nonce !== '') setNonce(nonce);
// Zod is configured for the policy where it is loaded (zod-config.ts, through zod-jitless.ts).
