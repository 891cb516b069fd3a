import type { InboxNotification, UnreadCount } from '@rpm/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { inboxQuery, INBOX_KEY, FORCE_KEY, markAllNotificationsRead, markNotificationRead } from './inbox-api';
import { appPathOf, momentText, notificationText } from './notification-text';
import { UNREAD_COUNT_KEY, unreadCountQuery } from './notifications-api';
import { useNotificationCatalogue } from './use-notification-catalogue';

/** After a read: the counts the server answered, and the lists fetched again. */
function useAfterRead() {
  const queryClient = useQueryClient();
  return (counts: UnreadCount) => {
    queryClient.setQueryData(UNREAD_COUNT_KEY, counts);
    void queryClient.invalidateQueries({ queryKey: INBOX_KEY });
    void queryClient.invalidateQueries({ queryKey: FORCE_KEY });
  };
}

function UpdateItem({ item, onOpen }: { item: InboxNotification; onOpen: (item: InboxNotification) => void }) {
  const { t, i18n } = useTranslation('notifications');
  const id = useId();
  const text = notificationText(t, i18n.language, item);
  const leadsSomewhere = appPathOf(item.link) !== null;
  return (
    <li className={`update${item.read ? '' : ' unread'}${item.force ? ' force' : ''}`} data-testid="update" data-read={item.read}>
      <p className="update-head">
        <span id={`${id}-type`} className="update-type">
          {t(`types.${item.type}`)}
          {item.force ? ` · ${t('force.heading')}` : ''}
        </span>
        <span id={`${id}-when`} className="update-when">
          {momentText(i18n.language, item.createdAt)}
        </span>
      </p>
      <p className="update-title">
        {item.read ? null : <span className="unread-dot" aria-hidden="true" />}
        {/* The title is the button; it stretches over the whole card, so a tap anywhere opens it. */}
        <button
          type="button"
          className="update-button"
          aria-describedby={`${id}-body ${id}-type ${id}-when`}
          onClick={() => {
            onOpen(item);
          }}
        >
          {text.title}
          {item.read ? null : <span className="visually-hidden">, {t('unread')}</span>}
        </button>
        {leadsSomewhere ? (
          <span className="update-chevron" aria-hidden="true">
            ›
          </span>
        ) : null}
      </p>
      <p id={`${id}-body`} className="update-body">
        {text.body}
      </p>
    </li>
  );
}

/**
 * The inbox (spec §3 notification, §4 read / unread): the account's notifications, newest first, 15
 * at a time, unread ones marked and filterable. Tapping one marks it read and opens where it leads;
 * "Mark all as read" leaves the mandatory notices, which are acknowledged one by one. Kept current
 * by the live layer (a `notification.created` event, a reconnect) and the count's poll.
 */
export function UpdatesTab() {
  const { t } = useTranslation('notifications');
  const { t: tApp } = useTranslation('appAlerts');
  const isReady = useNotificationCatalogue();
  const navigate = useNavigate();
  const [isUnreadOnly, setUnreadOnly] = useState(false);
  const inbox = useInfiniteQuery(inboxQuery(isUnreadOnly));
  const counts = useQuery(unreadCountQuery()).data;
  const afterRead = useAfterRead();
  const readOne = useMutation({ mutationFn: markNotificationRead, onSuccess: afterRead });
  const readAll = useMutation({ mutationFn: markAllNotificationsRead, onSuccess: afterRead });
  const failure = readOne.error ?? readAll.error;

  if (!isReady) return <p role="status" className="loading">{tApp('notifications.loading')}</p>;

  // A page fetched again after a new notice may repeat an item of the next: each shows once.
  const byId = new Map<string, InboxNotification>();
  for (const page of inbox.data?.pages ?? []) for (const item of page.items) if (!byId.has(item.id)) byId.set(item.id, item);
  const items = [...byId.values()];
  const readableCount = counts === undefined ? 0 : counts.unread - counts.forcePending;
  const open = (item: InboxNotification) => {
    if (!item.read) readOne.mutate(item.id);
    const path = appPathOf(item.link);
    if (path !== null) void navigate(path);
  };

  return (
    <div className="updates">
      <div className="updates-tools">
        <div className="filter-chips" role="group" aria-label={tApp('centre.filter')}>
          <button type="button" aria-pressed={!isUnreadOnly} onClick={() => { setUnreadOnly(false); }}>
            {t('filterAll')}
          </button>
          <button type="button" aria-pressed={isUnreadOnly} onClick={() => { setUnreadOnly(true); }}>
            {t('filterUnread')}
          </button>
        </div>
        {readableCount > 0 ? (
          <button type="button" className="read-all" disabled={readAll.isPending} onClick={() => { readAll.mutate(); }}>
            {t('markAllRead')}
          </button>
        ) : null}
      </div>
      {failure ? <Alert>{errorMessage(failure)}</Alert> : null}
      {inbox.isPending ? <p role="status" className="loading">{tApp('notifications.loading')}</p> : null}
      {inbox.isError ? (
        <Alert>
          {t('loadError')}. {errorMessage(inbox.error)}{' '}
          <button type="button" onClick={() => void inbox.refetch()}>{t('retry')}</button>
        </Alert>
      ) : null}
      {inbox.isSuccess && items.length === 0 ? (
        <p className="updates-empty" data-testid="updates-empty">{isUnreadOnly ? t('emptyUnread') : t('empty')}</p>
      ) : null}
      {items.length > 0 ? (
        <ul className="update-list" aria-busy={inbox.isFetching}>
          {items.map((item) => (
            <UpdateItem key={item.id} item={item} onOpen={open} />
          ))}
        </ul>
      ) : null}
      {inbox.hasNextPage ? (
        <button type="button" className="show-more" disabled={inbox.isFetchingNextPage} onClick={() => void inbox.fetchNextPage()}>
          {t('showMore')}
        </button>
      ) : null}
    </div>
  );
}
