import type { RouteObject } from 'react-router';

/** Manual and photo entry (spec §2 patient app, §5 entry rules). */
export const entryRoutes: RouteObject[] = [];
