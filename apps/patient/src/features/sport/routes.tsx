import type { RouteObject } from 'react-router';

/** Sport modes with live tracking and history, weight goal and records with BMI (spec §2 patient app). */
export const sportRoutes: RouteObject[] = [];
