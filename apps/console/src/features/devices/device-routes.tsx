import type { RouteObject } from 'react-router';

/** Devices and their connection and phone histories: the pages inside an area. */
export const deviceRoutes: RouteObject[] = [];
