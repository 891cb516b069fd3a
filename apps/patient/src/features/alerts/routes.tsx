import type { RouteObject } from 'react-router';

/** The notifications list and the SOS screens (spec §2 patient app, §4 alerts). */
export const alertsRoutes: RouteObject[] = [];
