import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './records.css';

/** Medical records, read only (spec §3 Medical record, §6). The page loads on first visit. */
export const medicalRecordsRoutes: RouteObject[] = [
  { path: 'records', lazy: async () => ({ Component: (await import('./records-page')).MedicalRecordsPage }) },
];
