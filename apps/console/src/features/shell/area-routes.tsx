import { Navigate, Outlet } from 'react-router';
import type { RoleArea } from '@rpm/contracts';
import { ForbiddenPage } from './forbidden-page';
import { useSession } from './session-context';

/** `/` after startup: each role lands on its own area home (spec §2 path prefixes). */
export function AreaRedirect() {
  const { area } = useSession();
  return <Navigate to={`/${area}`} replace />;
}

/** A role's pages live under its area; another role's area is refused, not shown half-working. */
export function AreaGuard({ area }: { area: RoleArea }) {
  const session = useSession();
  return session.area === area ? <Outlet /> : <ForbiddenPage />;
}
