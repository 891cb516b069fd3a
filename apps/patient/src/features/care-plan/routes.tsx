import type { RouteObject } from 'react-router';
// Loaded with the app: a stylesheet shared only by lazy pages would become a CSS-only chunk (see doctors/routes.tsx).
import './care-plan.css';

/** Medicines of the day, prescriptions and their detail (spec §2 patient app). Each loads on first visit. */
export const carePlanRoutes: RouteObject[] = [
  { path: 'medicines', lazy: async () => ({ Component: (await import('./medicines-page')).MedicinesPage }) },
  {
    path: 'medicines/prescriptions',
    lazy: async () => ({ Component: (await import('./prescriptions-page')).PrescriptionsPage }),
  },
  { path: 'events', lazy: async () => ({ Component: (await import('./events-page')).EventsPage }) },
  {
    path: 'medicines/prescriptions/:id',
    lazy: async () => ({ Component: (await import('./prescriptions-page')).PrescriptionDetailPage }),
  },
];
