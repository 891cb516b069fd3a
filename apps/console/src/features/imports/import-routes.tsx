import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { importKindsAllowed } from '@rpm/contracts';
import { ForbiddenPage } from '../shell/forbidden-page';
import { usePermissions } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** The page is for holders of user.import (patients) or device.import (devices). */
function RequireImportPermission({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions();
  return <>{importKindsAllowed(permissions).length > 0 ? children : <ForbiddenPage />}</>;
}

/** Bulk imports of patients and devices: the pages inside an area. */
export const importRoutes: RouteObject[] = [
  {
    path: 'imports',
    lazy: lazyPage(
      () => import('./imports-page').then((m) => m.ImportsPage),
      (page) => <RequireImportPermission>{page}</RequireImportPermission>,
    ),
  },
];
