import type { RouteObject } from 'react-router';

/** Watches: bind, unbind, states, settings, firmware, sync (spec §2 patient app, §4 device states). */
export const deviceRoutes: RouteObject[] = [];
