import { NOTIFICATION_PAGE_SIZE, type AppNotification } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { formatWhen } from './format';
import { ALERT_KEYS, markAllRead, markRead, notificationsQuery } from './alerts-api';
import { askForSystemNotifications, systemNotificationState } from './system-notification';
import './alerts.css';

function NotificationItem({ item, onRead }: { item: AppNotification; onRead: (id: string) => void }) {
  const { t } = useTranslation('appAlerts');
  const when = formatWhen(new Date(item.createdAt));
  const title =
    item.type === 'NO_DATA'
      ? t('notifications.item.NO_DATA')
      : t(`notifications.item.${item.level}`, { type: t(`type.${item.type}`) });
  return (
    <li className={`notification level-${item.level.toLowerCase()}${item.read ? '' : ' unread'}`} data-testid="notification">
      <div className="notification-text">
        <span className="notification-title">
          {item.read ? null : <span className="unread-dot" aria-label={t('notifications.unreadMark')} role="img" />}
          {title}
        </span>
        <span className="notification-when">{when}</span>
      </div>
      {item.read ? null : (
        <button type="button" onClick={() => { onRead(item.id); }}>
          {t('notifications.markRead')}
        </button>
      )}
    </li>
  );
}

/**
 * The notifications list (spec §2 notifications, §3 read flag): the patient's alerts and SOS
 * events, newest first, unread ones marked; kept current by the alerts layer's live events.
 */
export function NotificationsPage() {
  const { t } = useTranslation('appAlerts');
  const queryClient = useQueryClient();
  const [size, setSize] = useState(NOTIFICATION_PAGE_SIZE);
  const list = useQuery({ ...notificationsQuery(size), placeholderData: (previous) => previous });
  const [permission, setPermission] = useState(systemNotificationState);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ALERT_KEYS.notifications });
  const readOne = useMutation({ mutationFn: markRead, onSuccess: refresh });
  const readAll = useMutation({ mutationFn: markAllRead, onSuccess: refresh });
  const failure = readOne.error ?? readAll.error;

  return (
    <div className="notifications">
      <div className="card-title">
        <h1>{t('notifications.title')}</h1>
        {list.data && list.data.unread > 0 ? (
          <span className="unread-count" data-testid="unread-count">{t('notifications.unread', { count: list.data.unread })}</span>
        ) : null}
      </div>
      {permission === 'default' ? (
        <button type="button" className="enable-system" onClick={() => void askForSystemNotifications().then(setPermission)}>
          {t('notifications.enableSystem')}
        </button>
      ) : null}
      {permission === 'denied' ? <p className="hint">{t('notifications.systemDenied')}</p> : null}
      {failure ? <Alert>{errorMessage(failure)}</Alert> : null}
      {list.isPending ? <p role="status" className="loading">{t('notifications.loading')}</p> : null}
      {list.isError ? (
        <Alert>
          {t('notifications.loadFailed')} {errorMessage(list.error)}{' '}
          <button type="button" onClick={() => void list.refetch()}>{t('notifications.retry')}</button>
        </Alert>
      ) : null}
      {list.data?.items.length === 0 ? <p className="hint">{t('notifications.empty')}</p> : null}
      {list.data && list.data.items.length > 0 ? (
        <>
          {list.data.unread > 0 ? (
            <button type="button" className="read-all" disabled={readAll.isPending} onClick={() => { readAll.mutate(); }}>
              {t('notifications.readAll')}
            </button>
          ) : null}
          <ul className="notification-list">
            {list.data.items.map((item) => (
              <NotificationItem key={item.id} item={item} onRead={(id) => { readOne.mutate(id); }} />
            ))}
          </ul>
          {list.data.total > list.data.items.length ? (
            <button type="button" onClick={() => { setSize((current) => current + NOTIFICATION_PAGE_SIZE); }}>
              {t('notifications.more')}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
