import { createContext, useContext } from 'react';
import { areaOfRole, type CheckTokenResponse, type RoleArea } from '@rpm/contracts';
import type { TenantSettingsSnapshot } from '../auth/auth-api';

/** What the startup sequence established; every screen inside the shell reads it from here. */
export interface Session {
  user: CheckTokenResponse;
  area: RoleArea;
  permissions: ReadonlySet<string>;
  tenant: TenantSettingsSnapshot['tenant'];
  settings: TenantSettingsSnapshot['settings'];
  logos: TenantSettingsSnapshot['logos'];
}

const SessionContext = createContext<Session | null>(null);

export const SessionProvider = SessionContext.Provider;

export function buildSession(
  user: CheckTokenResponse,
  permissions: readonly string[],
  snapshot: TenantSettingsSnapshot,
): Session {
  return {
    user,
    area: areaOfRole(user.role),
    permissions: new Set(permissions),
    tenant: snapshot.tenant,
    settings: snapshot.settings,
    logos: snapshot.logos,
  };
}

/**
 * The name to show for the user's organisation: the tenant's ORGANIZATION_NAME setting when set
 * (it defaults to empty), else the tenant's name; null for platform staff, who have no tenant.
 */
export function organisationName(session: Session): string | null {
  const configured = session.settings.ORGANIZATION_NAME?.trim() ?? '';
  if (configured !== '') return configured;
  return session.tenant?.name ?? null;
}

/** The signed-in session, or null on public pages (login, privacy, 404). */
export function useOptionalSession(): Session | null {
  return useContext(SessionContext);
}

/** The signed-in session; only for components rendered inside the startup gate. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() used outside the startup gate');
  return session;
}
