import { NOTIFICATION_PAGE_SIZE, type AppNotification } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { formatWhen } from './format';
import { ALERT_KEYS, markAllRead, markRead, notificationsQuery } from './alerts-api';
import { askForSystemNotifications, systemNotificationState } from './system-notification';
import { unreadCountQuery } from '../notifications/notifications-api';
import { UpdatesTab } from '../notifications/updates-tab';
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
 * The alerts list (spec §2 notifications, §3 read flag): the active profile's alerts and SOS
 * events, newest first, unread ones marked; kept current by the alerts layer's live events.
 */
function AlertsTab() {
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
    <div className="alerts-tab">
      {list.data && list.data.unread > 0 ? (
        <div className="alerts-tools">
          <span className="unread-count" data-testid="unread-count">{t('notifications.unread', { count: list.data.unread })}</span>
          <button type="button" className="read-all" disabled={readAll.isPending} onClick={() => { readAll.mutate(); }}>
            {t('notifications.readAll')}
          </button>
        </div>
      ) : null}
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

const TABS = ['updates', 'alerts'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => value === 'updates' || value === 'alerts';

/**
 * The tab a visit opens on when the address names none: where something new waits, alerts first
 * (a health alert matters more than a message); else the updates. Null while the alerts' count is
 * being fetched (a cached count may be out of date).
 */
function defaultTab(alerts: { isFetching: boolean; unread: number | undefined }): Tab | null {
  if (alerts.isFetching) return null;
  return (alerts.unread ?? 0) > 0 ? 'alerts' : 'updates';
}

function TabLabel({ label, unread }: { label: string; unread: number }) {
  const { t } = useTranslation('appAlerts');
  return (
    <>
      {label}
      {unread > 0 ? (
        <>
          {' '}
          <span className="tab-badge" aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
          <span className="visually-hidden">, {t('notifications.unread', { count: unread })}</span>
        </>
      ) : null}
    </>
  );
}

/**
 * The notifications page: two tabs, Updates (the account's notification centre: messages,
 * prescriptions, appointments, requests) and Alerts (the active profile's health alerts and SOS),
 * each with its unread count; the notification settings one tap away.
 */
export function NotificationsPage() {
  const { t } = useTranslation('appAlerts');
  const [params, setParams] = useSearchParams();
  const alerts = useQuery(notificationsQuery(1));
  const alertsUnread = alerts.data?.unread;
  const updates = useQuery(unreadCountQuery());
  const requested = params.get('tab');
  // Chosen once per visit: reading everything on the tab does not switch to the other one.
  const [opening, setOpening] = useState<Tab | null>(null);
  const computed = defaultTab({ isFetching: alerts.isFetching, unread: alertsUnread });
  useEffect(() => {
    if (opening === null && computed !== null) setOpening(computed);
  }, [computed, opening]);
  const chosen = isTab(requested) ? requested : (opening ?? computed);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());
  const choose = (tab: Tab, shouldFocus = false) => {
    setParams({ tab }, { replace: true });
    if (shouldFocus) tabRefs.current.get(tab)?.focus();
  };
  // The tabs pattern: arrows, Home and End move between the tabs.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (chosen === null) return;
    const index = TABS.indexOf(chosen);
    const next =
      event.key === 'ArrowRight' ? TABS[(index + 1) % TABS.length]
      : event.key === 'ArrowLeft' ? TABS[(index + TABS.length - 1) % TABS.length]
      : event.key === 'Home' ? TABS[0]
      : event.key === 'End' ? TABS[TABS.length - 1]
      : undefined;
    if (next === undefined) return;
    event.preventDefault();
    choose(next, true);
  };
  const unreadOf = (tab: Tab) => (tab === 'alerts' ? (alertsUnread ?? 0) : (updates.data?.unread ?? 0));

  return (
    <div className="notifications">
      <div className="card-title">
        <h1>{t('notifications.title')}</h1>
        <Link className="centre-settings" to="/notifications/settings">{t('centre.settings')}</Link>
      </div>
      <div className="segmented centre-tabs" role="tablist" aria-label={t('centre.tabs')} onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              if (element === null) tabRefs.current.delete(tab);
              else tabRefs.current.set(tab, element);
            }}
            type="button"
            role="tab"
            id={`centre-tab-${tab}`}
            aria-selected={chosen === tab}
            aria-controls={`centre-panel-${tab}`}
            tabIndex={chosen === tab || (chosen === null && tab === 'updates') ? 0 : -1}
            onClick={() => {
              choose(tab);
            }}
          >
            <TabLabel label={t(`centre.${tab}`)} unread={unreadOf(tab)} />
          </button>
        ))}
      </div>
      {chosen === null ? <p role="status" className="loading">{t('notifications.loading')}</p> : null}
      {chosen === null ? null : (
        <div role="tabpanel" id={`centre-panel-${chosen}`} aria-labelledby={`centre-tab-${chosen}`} tabIndex={0} className="centre-panel">
          {chosen === 'updates' ? <UpdatesTab /> : <AlertsTab />}
        </div>
      )}
    </div>
  );
}
