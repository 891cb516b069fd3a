import type { RouteObject } from 'react-router';

/** Visitor mode: the app without an account, everything kept on the phone (spec §2 patient app). */
export const visitorRoutes: RouteObject[] = [];
