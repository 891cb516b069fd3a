import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { loadSession } from '../../api/session-store';
import { sessionQuery } from '../auth/auth-api';

/** Signed-in screens only with a live session; otherwise the login page. */
export function RequireSession() {
  const { t } = useTranslation();
  const hasTokens = loadSession() !== undefined;
  const session = useQuery({ ...sessionQuery(), enabled: hasTokens });
  if (!hasTokens || session.isError) return <Navigate to="/login" replace />;
  if (session.isPending) return <p role="status" className="loading">{t('loading')}</p>;
  return <Outlet />;
}
