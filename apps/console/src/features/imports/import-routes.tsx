import type { RouteObject } from 'react-router';

/** Bulk imports of patients and devices: the pages inside an area. */
export const importRoutes: RouteObject[] = [];
