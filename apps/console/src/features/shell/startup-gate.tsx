import { useEffect, useMemo } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { endsSession, errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { permissionsQuery, sessionQuery, tenantSettingsQuery } from '../auth/auth-api';
import { useSetBranding } from './branding';
import { DesktopOnly } from './desktop-only-notice';
import { buildSession, SessionProvider } from './session-context';
import { StartupScreen, type StartupState, type StartupStep } from './startup-screen';

/** Failed and not being retried: a Retry click shows the step as loading again, not the old error. */
function hasFailed(query: UseQueryResult): boolean {
  return query.isError && !query.isFetching;
}

function failedStep(step: StartupStep, query: UseQueryResult): StartupState {
  if (endsSession(query.error)) {
    // The shared error handler is already taking the user to /login (with the reason).
    return { status: 'redirecting' };
  }
  return {
    status: 'error',
    step,
    message: messageText(errorMessageFor(query.error)),
    onRetry: () => void query.refetch(),
  };
}

/**
 * The signed-in console: on a screen too narrow for it, the desktop-only notice first (spec §2);
 * then the startup sequence.
 */
export function StartupGate() {
  return (
    <DesktopOnly>
      <StartupSequence />
    </DesktopOnly>
  );
}

/**
 * Spec §1 startup order: check the session, then load permissions, then tenant settings, then
 * show the interface. Each step starts only when the previous one succeeded, so a failure names
 * exactly one step and its Retry repeats only that step.
 */
function StartupSequence() {
  const session = useQuery(sessionQuery());
  const userId = session.data?.userId ?? '';
  const permissions = useQuery({ ...permissionsQuery(userId), enabled: session.isSuccess });
  const settings = useQuery({ ...tenantSettingsQuery(userId), enabled: permissions.isSuccess });

  const setBranding = useSetBranding();
  useEffect(() => {
    if (settings.data) setBranding(settings.data.settings);
  }, [settings.data, setBranding]);

  const value = useMemo(
    () =>
      session.data && permissions.data && settings.data
        ? buildSession(session.data, permissions.data, settings.data)
        : null,
    [session.data, permissions.data, settings.data],
  );

  if (hasFailed(session)) return <StartupScreen state={failedStep('session', session)} />;
  if (!session.isSuccess) return <StartupScreen state={{ status: 'loading', step: 'session' }} />;
  if (hasFailed(permissions)) return <StartupScreen state={failedStep('permissions', permissions)} />;
  if (!permissions.isSuccess) return <StartupScreen state={{ status: 'loading', step: 'permissions' }} />;
  if (hasFailed(settings)) return <StartupScreen state={failedStep('settings', settings)} />;
  if (!settings.isSuccess || !value) return <StartupScreen state={{ status: 'loading', step: 'settings' }} />;

  return (
    <SessionProvider value={value}>
      <Outlet />
    </SessionProvider>
  );
}
