import type { ComponentType, ReactNode } from 'react';
import type { LazyRouteFunction, RouteObject } from 'react-router';
import { loadErrorMessages } from '../i18n';

/**
 * A route whose page is its own chunk, fetched the first time the route matches (the router keeps
 * the current page meanwhile). `wrap` puts a guard, such as a permission check, around the page.
 * Every error code's message is fetched with it (the startup load holds only the first screens'),
 * so a code the page shows, from the server or its own checks, reads in the user's language.
 *
 *   { path: 'devices', lazy: lazyPage(() => import('./devices-page').then((m) => m.DevicesPage)) }
 */
export function lazyPage(
  load: () => Promise<ComponentType>,
  wrap?: (page: ReactNode) => ReactNode,
): LazyRouteFunction<RouteObject> {
  return async () => {
    // A failed fetch of the messages does not keep the page from drawing (i18n.ts asks again).
    const [Page] = await Promise.all([load(), loadErrorMessages().catch(() => undefined)]);
    return wrap ? { element: wrap(<Page />) } : { Component: Page };
  };
}

/**
 * A first screen (a public page, an area's home): fetched with no more error messages than the
 * startup load's, so it is drawn without waiting for the rest. Its failed calls still show their
 * messages: the API client fetches the rest before it hands one on (api/client.ts).
 */
export function lazyFirstScreen(
  load: () => Promise<ComponentType>,
  wrap?: (page: ReactNode) => ReactNode,
): LazyRouteFunction<RouteObject> {
  return async () => {
    const Page = await load();
    return wrap ? { element: wrap(<Page />) } : { Component: Page };
  };
}
