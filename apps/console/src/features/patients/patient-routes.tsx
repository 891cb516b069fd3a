import type { RouteObject } from 'react-router';

/** Patients, their profiles, create and edit, and the dashboard: the pages inside an area. */
export const patientRoutes: RouteObject[] = [];
