import type { RouteObject } from 'react-router';

/** Health pages per measure, reports, sleep, OSAHS, sport and weight (spec §2 patient app). */
export const healthRoutes: RouteObject[] = [];
