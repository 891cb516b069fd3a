import type { ComponentType, ReactNode } from 'react';
import type { LazyRouteFunction, RouteObject } from 'react-router';

/**
 * A route whose page is its own chunk, fetched the first time the route matches (the router keeps
 * the current page meanwhile). `wrap` puts a guard, such as a permission check, around the page.
 *
 *   { path: 'devices', lazy: lazyPage(() => import('./devices-page').then((m) => m.DevicesPage)) }
 */
export function lazyPage(
  load: () => Promise<ComponentType>,
  wrap?: (page: ReactNode) => ReactNode,
): LazyRouteFunction<RouteObject> {
  return async () => {
    const Page = await load();
    return wrap ? { element: wrap(<Page />) } : { Component: Page };
  };
}
