/**
 * The ways a browser reports that a lazily loaded part of the console could not be fetched: the
 * file is gone after a deploy (its hashed name changed) or the network dropped. Only a reload
 * helps, so the route error page offers one instead of a generic failure.
 */
const CHUNK_LOAD_FAILURES = [
  // Chromium
  /failed to fetch dynamically imported module/i,
  // Firefox
  /error loading dynamically imported module/i,
  // Safari
  /importing a module script failed/i,
  // Vite's preload of a chunk's stylesheet (vite:preloadError)
  /unable to preload css/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return CHUNK_LOAD_FAILURES.some((pattern) => pattern.test(error.message));
}
