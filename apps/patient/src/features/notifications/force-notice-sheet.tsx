import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { FullScreenDialog } from '../alerts/modal';
import { SosButton } from '../alerts/sos-button';
import { FORCE_KEY, forceStatusQuery, INBOX_KEY, markNotificationRead } from './inbox-api';
import { appPathOf, momentText, notificationText } from './notification-text';
import { UNREAD_COUNT_KEY } from './notifications-api';
import { useNotificationCatalogue } from './use-notification-catalogue';

/**
 * Mandatory notices (spec §7 status/force): the oldest one the account has not acknowledged, full
 * screen over every signed-in screen, until "I have read this" (which reads it); then the next,
 * until none waits. Escape and the back gesture do not close it. The SOS button stays in reach.
 */
export function ForceNoticeSheet() {
  const { t, i18n } = useTranslation('notifications');
  const { t: tApp } = useTranslation('appAlerts');
  const isReady = useNotificationCatalogue();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery(forceStatusQuery());
  const acknowledge = useMutation({
    mutationFn: (input: { id: string; path: string | null }) => markNotificationRead(input.id),
    onSuccess: async (counts, input) => {
      queryClient.setQueryData(UNREAD_COUNT_KEY, counts);
      void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
      await queryClient.invalidateQueries({ queryKey: FORCE_KEY });
      if (input.path !== null) void navigate(input.path);
    },
  });
  const notice = status.data?.oldest ?? null;
  const acknowledgeButton = useRef<HTMLButtonElement>(null);
  const noticeId = notice?.id;
  useEffect(() => {
    // Each notice starts with the focus on its answer, read after the heading and text.
    acknowledgeButton.current?.focus();
  }, [noticeId, isReady]);

  if (!isReady || notice === null) return null;
  const text = notificationText(t, i18n.language, notice);
  const path = appPathOf(notice.link);
  const pending = status.data?.pending ?? 1;
  const isBusy = acknowledge.isPending || status.isFetching;

  return (
    <FullScreenDialog labelId="force-notice-title" describedId="force-notice-body" tone="notice" testId="force-notice">
      <div className="force-notice-top">
        <p className="force-notice-kicker">{t('force.heading')}</p>
        <SosButton />
      </div>
      {pending > 1 ? <p className="force-notice-pending">{t('force.pending', { count: pending })}</p> : null}
      <h2 id="force-notice-title">{text.title}</h2>
      <p className="force-notice-when">{momentText(i18n.language, notice.createdAt)}</p>
      <p id="force-notice-body" className="force-notice-body">
        {text.body}
      </p>
      {acknowledge.isError ? (
        <p className="dialog-error" role="alert">
          {errorMessage(acknowledge.error)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button
          ref={acknowledgeButton}
          type="button"
          className="dialog-close"
          aria-disabled={isBusy}
          onClick={() => {
            // Kept focusable while busy (a disabled button would drop the focus out of the notice).
            if (!isBusy) acknowledge.mutate({ id: notice.id, path: null });
          }}
        >
          {t('force.acknowledge')}
        </button>
        {path === null ? null : (
          <button
            type="button"
            aria-disabled={isBusy}
            onClick={() => {
              if (!isBusy) acknowledge.mutate({ id: notice.id, path });
            }}
          >
            {tApp('centre.readAndOpen')}
          </button>
        )}
      </div>
    </FullScreenDialog>
  );
}
