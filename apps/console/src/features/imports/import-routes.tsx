import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { importKindsAllowed } from '@rpm/contracts';
import { ForbiddenPage } from '../shell/forbidden-page';
import { usePermissions } from '../shell/permissions';
import { ImportsPage } from './imports-page';

/** The page is for holders of user.import (patients) or device.import (devices). */
function RequireImportPermission({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions();
  return <>{importKindsAllowed(permissions).length > 0 ? children : <ForbiddenPage />}</>;
}

/** Bulk imports of patients and devices: the pages inside an area. */
export const importRoutes: RouteObject[] = [
  {
    path: 'imports',
    element: (
      <RequireImportPermission>
        <ImportsPage />
      </RequireImportPermission>
    ),
  },
];
