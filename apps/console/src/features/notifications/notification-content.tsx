import { Badge } from '@mantine/core';
import type { InboxNotification, NotificationType } from '@rpm/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { displayParams } from './notification-text';

/** One hue per type, so a glance tells appointments from alerts (light badges: AA by the theme). */
const TYPE_COLORS: Record<NotificationType, string> = {
  CONTACT: 'cyan',
  PRESCRIPTION: 'grape',
  REMINDER: 'yellow',
  REQUEST: 'indigo',
  APPOINTMENT: 'blue',
  SCHEDULE: 'teal',
  ALERT: 'red',
  ANNOUNCEMENT: 'orange',
  MESSAGE: 'gray',
};

/**
 * A notification's title and body in the reader's language: the kind's text filled with its
 * parameters, or, for a message a person wrote, that text as written (shown as plain text).
 */
export function notificationText(
  t: TFunction<'notifications'>,
  notification: InboxNotification,
): { title: string; body: string } {
  if (notification.kind === 'message')
    return { title: notification.title ?? t('kinds.message.title'), body: notification.body ?? '' };
  const { kind } = notification;
  return {
    title: t(`kinds.${kind}.title`),
    body: t(`kinds.${kind}.body`, displayParams(notification.params)),
  };
}

export function NotificationTypeBadge({ type }: { type: NotificationType }) {
  const { t } = useTranslation('notifications');
  return (
    <Badge variant="light" color={TYPE_COLORS[type]} size="sm" data-testid="notification-type">
      {t(`types.${type}`)}
    </Badge>
  );
}

/** When it arrived, in the user's zone (dd/MM/yyyy HH:mm). */
export function NotificationTime({ at }: { at: string }) {
  return <time dateTime={at}>{formatDateTime(at)}</time>;
}
