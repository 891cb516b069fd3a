import type { RouteObject } from 'react-router';

/** Doctors, doctor profiles and patient/doctor requests: the pages inside an area. */
export const doctorRoutes: RouteObject[] = [];
