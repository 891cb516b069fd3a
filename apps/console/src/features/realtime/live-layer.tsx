import type { LiveEvent } from '@rpm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { refreshSession } from '../../api/client';
import { useEndSession } from '../auth/use-end-session';
import { useSession } from '../shell/session-context';
import { playAlarm } from './beep';
import { LiveClient, type LiveStatus } from './live-client';
import { LiveContext, type LiveHandler, type LiveLayerValue } from './live-context';
import { invalidateForEvent } from './live-invalidation';
import { sosAlertOf, type SosAlert } from './sos-alert';

/**
 * The SOS popup (a modal dialog with its focus trap and scroll lock) is fetched once the layer is
 * drawn, alongside the first screen rather than before it, and mounted from the first SOS on. An SOS
 * that arrives before its code rings the alarm at once and waits in the layer's state; the popup
 * shows it when the code is there.
 */
const loadSosPopup = () => import('./sos-popup');
const SosPopup = lazy(() => loadSosPopup().then((module) => ({ default: module.SosPopup })));

/**
 * The console's live layer, mounted once inside the signed-in frame: one socket, the central
 * mapping from events to stale queries, `useLiveEvent` subscriptions, and the SOS popup (when the
 * tenant's ALLOW_WEB_SOS_POPUP is on; the server only sends SOS of the centers the user sees).
 */
export function LiveLayer({ children }: { children: ReactNode }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const endSession = useEndSession();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [sosAlerts, setSosAlerts] = useState<SosAlert[]>([]);
  const [hasHadSos, setHasHadSos] = useState(false);
  const listeners = useRef(new Map<string, Set<LiveHandler>>());
  const latest = useRef({ endSession, isPopupOn: false });
  latest.current = {
    endSession,
    isPopupOn: session.settings.ALLOW_WEB_SOS_POPUP !== 'false' && session.area !== 'user',
  };
  const { userId, tenantId } = session.user;

  useEffect(() => {
    const deliver = (event: LiveEvent) => {
      invalidateForEvent(queryClient, event);
      for (const key of [event.type, '*']) {
        for (const handler of listeners.current.get(key) ?? []) handler(event);
      }
      if (event.type === 'sos.opened' && latest.current.isPopupOn) {
        const alert = sosAlertOf(event);
        if (alert !== null) {
          setSosAlerts((current) =>
            current.some((item) => item.caseId === alert.caseId) ? current : [...current, alert],
          );
          setHasHadSos(true);
          playAlarm();
        }
      }
    };
    const client = new LiveClient({
      storageKey: `rpm.live.${tenantId}.${userId}`,
      onEvent: deliver,
      onStatus: setStatus,
      onSessionEnd: (reason) => {
        latest.current.endSession(reason);
      },
      refreshSession,
    });
    client.start();
    // A failed fetch is tried again when an SOS needs the popup.
    loadSosPopup().catch(() => undefined);
    return () => {
      client.stop();
    };
  }, [queryClient, tenantId, userId]);

  const value = useMemo<LiveLayerValue>(
    () => ({
      status,
      subscribe: (type, handler) => {
        const set = listeners.current.get(type) ?? new Set<LiveHandler>();
        set.add(handler);
        listeners.current.set(type, set);
        return () => {
          set.delete(handler);
        };
      },
    }),
    [status],
  );

  return (
    <LiveContext.Provider value={value}>
      {children}
      {hasHadSos ? (
        <Suspense fallback={null}>
          <SosPopup
            alerts={sosAlerts}
            area={session.area}
            onDismiss={(caseId) => {
              setSosAlerts((current) => current.filter((item) => item.caseId !== caseId));
            }}
          />
        </Suspense>
      ) : null}
    </LiveContext.Provider>
  );
}
