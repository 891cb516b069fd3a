import { waitingAlertSchema, type FollowedPatient, type LiveEvent } from '@rpm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiRequest } from '../../api/client';
import { useActiveProfile } from '../../api/profile-store';
import { showSystemNotification } from '../alerts/system-notification';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { switchProfile } from '../profiles/profiles-api';
import { CONTACT_KEYS, FOLLOWED_REFRESH_MS, followingQuery, openFollowedPatient } from './contacts-api';

interface FollowerNotice {
  patient: FollowedPatient;
  tone: 'sos' | 'alert';
  title: string;
  body: string;
}

const HEALTH_QUERIES = [SESSION_QUERY_ROOT, 'health'] as const;
const ALERT_QUERIES = [SESSION_QUERY_ROOT, 'alerts'] as const;

/**
 * The follower's side of the live channel (spec §6: followers receive alerts). The server sends
 * this account the allowed events of the patients it follows; an event is "theirs" when its
 * patient is in the account's following list. Such an event refreshes "My patients" and, when
 * that patient is the profile on screen, its data; an SOS or a risky reading brings a notice
 * that opens the patient. `follower.changed` (a confirmation, a hidden kind, a removal) refreshes
 * the contact lists and the followed data at once, so a kind the patient hides disappears.
 *
 * `handle` answers whether the event was a followed patient's (the caller then leaves it alone).
 */
export function useFollowerAlerts(): { handle: (event: LiveEvent) => boolean; notice: ReactNode; isFollowedShown: boolean } {
  const { t } = useTranslation('appContacts');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const active = useActiveProfile();
  // Loaded at start: an event is matched against it as it arrives.
  useQuery(followingQuery());
  const [notice, setNotice] = useState<FollowerNotice | null>(null);
  const followedId = active?.kind === 'FOLLOWED' ? active.patientId : null;
  const checkOwnAlert = useOwnAlertWhileFollowing(followedId !== null);

  const refreshFollowed = useCallback(
    (patientId: string | null) => {
      void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.following });
      if (followedId !== null && (patientId === null || patientId === followedId)) {
        void queryClient.invalidateQueries({ queryKey: HEALTH_QUERIES });
        void queryClient.invalidateQueries({ queryKey: ALERT_QUERIES });
      }
    },
    [followedId, queryClient],
  );

  const handle = useCallback(
    (event: LiveEvent): boolean => {
      if (event.type === 'follower.changed') {
        void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.all });
        // The header's profile list too: it names the followed patients and what each hides.
        void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.profiles });
        refreshFollowed(event.patientId);
        return false;
      }
      const list = queryClient.getQueryData<FollowedPatient[]>(CONTACT_KEYS.following);
      const patient = list?.find((entry) => entry.patientId === event.patientId);
      if (patient === undefined) {
        if (event.type === 'alert.raised' || event.type === 'alert.updated') checkOwnAlert();
        return false;
      }
      refreshFollowed(patient.patientId);
      const level = event.payload.level;
      let shown: Omit<FollowerNotice, 'patient'> | null = null;
      if (event.type === 'sos.opened')
        shown = { tone: 'sos', title: t('notice.sos', { name: patient.name }), body: t('notice.sosBody') };
      else if (event.type === 'alert.raised' && (level === 'AT_RISK' || level === 'HIGH_RISK')) {
        const type = t(`appAlerts:type.${typeof event.payload.type === 'string' ? event.payload.type : ''}`);
        shown = {
          tone: 'alert',
          title: t(level === 'HIGH_RISK' ? 'notice.alertHigh' : 'notice.alert', { name: patient.name, type }),
          body: t('notice.alertBody'),
        };
      }
      if (shown !== null) {
        setNotice({ patient, ...shown });
        showSystemNotification(shown.title, shown.body, `follower-${patient.patientId}-${event.type}`);
      }
      return true;
    },
    [checkOwnAlert, queryClient, refreshFollowed, t],
  );

  // A followed patient on screen refreshes often enough to look live (readings have no event).
  useEffect(() => {
    if (followedId === null) return;
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: HEALTH_QUERIES });
    }, FOLLOWED_REFRESH_MS);
    return () => {
      clearInterval(timer);
    };
  }, [followedId, queryClient]);

  const element =
    notice === null ? null : (
      <div className={`follower-notice tone-${notice.tone}`} role="alert" data-testid="follower-notice">
        <strong>{notice.title}</strong>
        <p>{notice.body}</p>
        <div className="follower-notice-actions">
          <button type="button" onClick={() => { setNotice(null); }}>
            {t('notice.dismiss')}
          </button>
          <button
            type="button"
            className="open"
            onClick={() => {
              setNotice(null);
              void openFollowedPatient(queryClient, notice.patient).then(() => navigate('/health'));
            }}
          >
            {t('notice.open', { name: notice.patient.name })}
          </button>
        </div>
      </div>
    );
  return { handle, notice: element, isFollowedShown: followedId !== null };
}

/**
 * The account's own high-risk alert while a followed patient is on screen (whose data every call
 * is about then): asked for without the profile header, on start and on the account's own alert
 * events; one waiting brings the app back to the own record, where the alerts layer asks "Are you
 * all right?" and the answer goes to the right record. Answers a function that asks again.
 */
function useOwnAlertWhileFollowing(isFollowedShown: boolean): () => void {
  const queryClient = useQueryClient();
  const own = useQuery({
    queryKey: [...ALERT_QUERIES, 'waiting-own'],
    queryFn: () => apiRequest('GET', '/health/me/alerts/waiting', undefined, waitingAlertSchema, { ownRecord: true }),
    enabled: isFollowedShown,
    refetchOnWindowFocus: true,
  });
  const hasOwnAlert = isFollowedShown && own.data?.alert != null;
  useEffect(() => {
    if (hasOwnAlert) void switchProfile(queryClient, null);
  }, [hasOwnAlert, queryClient]);
  const { refetch } = own;
  return useCallback(() => {
    if (isFollowedShown) void refetch();
  }, [isFollowedShown, refetch]);
}
