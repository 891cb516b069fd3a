import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { announcementQuery } from './announcement-api';
import { FORCE_KEY, INBOX_KEY } from './inbox-api';
import { momentText } from './notification-text';
import { UNREAD_COUNT_KEY } from './notifications-api';

/**
 * An announcement the account received, opened from its notice. The body is the server's
 * sanitized HTML (allow-list: headings, emphasis, lists, quotes, links that open in a new tab).
 * Opening it reads the notice, so the counts and the inbox are fetched again.
 */
export function AnnouncementPage() {
  const { t, i18n } = useTranslation('appAlerts');
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const announcement = useQuery(announcementQuery(id));
  useEffect(() => {
    if (!announcement.isSuccess) return;
    void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_KEY });
    void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    void queryClient.invalidateQueries({ queryKey: FORCE_KEY });
  }, [announcement.isSuccess, queryClient]);

  return (
    <div className="announcement-page">
      <p className="back">
        <Link to="/notifications">{t('centre.back')}</Link>
      </p>
      {announcement.isPending ? (
        <p role="status" className="loading">
          {t('announcement.loading')}
        </p>
      ) : announcement.isError ? (
        <Alert>
          {announcement.error instanceof ApiError && announcement.error.status === 404
            ? t('announcement.notAvailable')
            : `${t('announcement.loadFailed')} ${errorMessage(announcement.error)}`}{' '}
          <button type="button" onClick={() => void announcement.refetch()}>
            {t('announcement.retry')}
          </button>
        </Alert>
      ) : (
        <article className="card announcement" data-testid="announcement">
          <p className="announcement-kicker">
            {t('announcement.kicker')} · {t('announcement.from')}
          </p>
          <h1>{announcement.data.title}</h1>
          <p className="hint">
            {t('announcement.byline', { author: announcement.data.authorName, at: momentText(i18n.language, announcement.data.publishedAt) })}
          </p>
          {/* Sanitized by the server before it was stored (see above). */}
          <div className="announcement-body" data-testid="announcement-body" dangerouslySetInnerHTML={{ __html: announcement.data.bodyHtml }} />
        </article>
      )}
    </div>
  );
}
