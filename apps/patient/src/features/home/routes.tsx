import type { RouteObject } from 'react-router';
import { HomePage } from './home-page';

/** The signed-in home (spec §2 patient app: dashboards). */
export const homeRoutes: RouteObject[] = [{ index: true, element: <HomePage /> }];
