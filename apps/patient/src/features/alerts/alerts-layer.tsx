import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LiveEvent, WaitingAlert } from '@rpm/contracts';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { useFollowerAlerts } from '../contacts/follower-alerts';
import { NOTIFICATION_CENTRE_KEY, NOTIFICATION_CREATED, unreadCountQuery } from '../notifications/notifications-api';
import { ALERT_KEYS, waitingAlertQuery } from './alerts-api';
import { HighRiskDialog } from './high-risk-dialog';
import { useLiveEvents } from './live';
import { showSystemNotification } from './system-notification';
import './alerts.css';

/** The mandatory notices' sheet, fetched only when one waits. */
const ForceNoticeSheet = lazy(async () => ({ default: (await import('../notifications/force-notice-sheet')).ForceNoticeSheet }));

interface AtRiskNotice {
  alertId: string;
  type: string;
}

/**
 * What sits over every signed-in screen (spec §4 alerts in the patient app): live alerts from the
 * WebSocket. At risk: an in-app notice (and a phone notification where permission was given).
 * High risk: the full-screen confirmation while the server waits for an answer; it is also asked
 * for on start, so an app opened mid-countdown still shows it. Every alert event refreshes the
 * notifications list. The events of patients this account follows go to the follower's notice
 * instead (contacts/follower-alerts.tsx). A new notification of the account refreshes its count and
 * inbox; a mandatory one waiting shows its sheet, after any high-risk question.
 */
export function AlertsLayer() {
  const { t } = useTranslation('appAlerts');
  const queryClient = useQueryClient();
  const follower = useFollowerAlerts();
  const handleFollowed = follower.handle;
  // A followed patient on screen is read only: its high-risk question is not this phone's to answer.
  const isFollowedShown = follower.isFollowedShown;
  const waiting = useQuery({ ...waitingAlertQuery(), refetchOnWindowFocus: true, enabled: !isFollowedShown });
  const { refetch } = waiting;
  const refetchWaiting = useCallback(() => {
    if (!isFollowedShown) void refetch();
  }, [isFollowedShown, refetch]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<AtRiskNotice | null>(null);
  const [shown, setShown] = useState<{ alert: NonNullable<WaitingAlert['alert']>; deadline: number } | null>(null);

  const forcePending = useQuery(unreadCountQuery()).data?.forcePending ?? 0;

  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (event.type === NOTIFICATION_CREATED) {
        void queryClient.invalidateQueries({ queryKey: NOTIFICATION_CENTRE_KEY });
        return;
      }
      if (handleFollowed(event)) return;
      // A booking, move, cancellation or completion by the health center shows at once.
      if (event.type === 'appointment.changed') {
        void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'appointments'] });
        return;
      }
      if (!event.type.startsWith('alert.') && !event.type.startsWith('sos.')) return;
      void queryClient.invalidateQueries({ queryKey: ALERT_KEYS.notifications });
      // The home and health pages show the status and values that raised it.
      void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'health'] });
      const level = event.payload.level;
      if (event.type === 'alert.raised' && level === 'HIGH_RISK') refetchWaiting();
      if (event.type === 'alert.updated') refetchWaiting();
      if (event.type === 'alert.raised' && level === 'AT_RISK') {
        const type = typeof event.payload.type === 'string' ? event.payload.type : '';
        const alertId = typeof event.payload.alertId === 'string' ? event.payload.alertId : String(event.id);
        setNotice({ alertId, type });
        showSystemNotification(t('atRisk.title'), t('atRisk.body', { type: t(`type.${type}`) }), alertId);
      }
    },
    [handleFollowed, queryClient, refetchWaiting, t],
  );
  const onResumed = useCallback(() => {
    refetchWaiting();
    void queryClient.invalidateQueries({ queryKey: ALERT_KEYS.notifications });
    // What followed patients did while the socket was down.
    void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'contacts'] });
    void queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT, 'appointments'] });
    // Notifications written while the socket was down.
    void queryClient.invalidateQueries({ queryKey: NOTIFICATION_CENTRE_KEY });
  }, [queryClient, refetchWaiting]);
  useLiveEvents(onEvent, onResumed);

  // The alert on screen stays until the patient closes it (its answer or outcome shows meanwhile).
  const alert = isFollowedShown ? null : (waiting.data?.alert ?? null);
  useEffect(() => {
    if (alert === null || waiting.data === undefined || dismissed.has(alert.id)) return;
    if (shown?.alert.id === alert.id) return;
    // The server's deadline on this phone's clock: the answer carries the server's "now".
    const deadline = Date.parse(alert.deadline) - Date.parse(waiting.data.now) + waiting.dataUpdatedAt;
    setShown({ alert, deadline });
  }, [alert, dismissed, shown, waiting.data, waiting.dataUpdatedAt]);

  return (
    <>
      {follower.notice}
      {notice === null ? null : (
        <div className="alert-notice" role="status" data-testid="at-risk-notice">
          <div>
            <strong>{t('atRisk.title')}</strong>
            <p>{t('atRisk.body', { type: t(`type.${notice.type}`) })}</p>
          </div>
          <div className="alert-notice-actions">
            <Link to="/notifications" onClick={() => { setNotice(null); }}>{t('atRisk.open')}</Link>
            <button type="button" onClick={() => { setNotice(null); }}>{t('atRisk.dismiss')}</button>
          </div>
        </div>
      )}
      {shown === null ? null : (
        <HighRiskDialog
          key={shown.alert.id}
          alert={shown.alert}
          deadline={shown.deadline}
          onDone={() => {
            const { id } = shown.alert;
            setDismissed((previous) => new Set([...previous, id]));
            setShown(null);
            refetchWaiting();
            void queryClient.invalidateQueries({ queryKey: ALERT_KEYS.notifications });
          }}
        />
      )}
      {/* A high-risk question is answered first: its countdown runs. */}
      {forcePending > 0 && shown === null ? (
        <Suspense fallback={null}>
          <ForceNoticeSheet />
        </Suspense>
      ) : null}
    </>
  );
}
