import { ActionIcon, Badge, Box } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_LIVE_EVENT } from '@rpm/contracts';
import { useLiveEvent, useLiveStatus } from '../realtime/live-context';
import { BellIcon } from '../shell/icons';
import { useSession } from '../shell/session-context';
import { ForceNotices } from './force-notices';
import { NOTIFICATIONS_QUERY_ROOT, unreadCountQuery } from './notification-count';
import { badgeText } from './notification-text';

// The inbox comes with its first opening (or when the pointer reaches the bell).
const loadInbox = () => import('./notification-inbox');
const NotificationInbox = lazy(() => loadInbox().then((module) => ({ default: module.NotificationInbox })));

/**
 * The header's bell, for those who may read notifications (every default role): the unread count
 * (kept fresh by live events, a poll each minute and each reconnection), the inbox drawer it
 * opens, and the mandatory notices shown over every screen.
 */
export function NotificationBell() {
  const isAllowed = useSession().permissions.has('notification.view');
  return isAllowed ? <Bell /> : null;
}

function Bell() {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const [isOpen, setIsOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const count = useQuery(unreadCountQuery());
  const unread = count.data?.unread ?? 0;
  useLiveEvent(NOTIFICATION_LIVE_EVENT, () => {
    void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
  });
  // Missed events are replayed on reconnecting, but not what was read meanwhile in another tab.
  const status = useLiveStatus();
  const wasDown = useRef(false);
  useEffect(() => {
    if (status === 'reconnecting') wasDown.current = true;
    else if (status === 'live' && wasDown.current) {
      wasDown.current = false;
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
    }
  }, [status, queryClient]);
  const label = unread > 0 ? t('bellUnread', { count: unread }) : t('title');

  return (
    <>
      <Box pos="relative">
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={isOpen}
          data-testid="notification-bell"
          onPointerEnter={() => void loadInbox().catch(() => undefined)}
          onClick={() => {
            setIsOpen(true);
            setHasOpened(true);
          }}
        >
          <BellIcon width={20} height={20} />
        </ActionIcon>
        {unread > 0 ? (
          <Badge
            size="xs"
            color="red"
            variant="filled"
            pos="absolute"
            top={-4}
            right={-6}
            px={4}
            aria-hidden="true"
            data-testid="notification-badge"
            style={{ pointerEvents: 'none' }}
          >
            {badgeText(unread)}
          </Badge>
        ) : null}
      </Box>
      {/* Mounted from the first opening on, so the drawer can animate out and keep its filter. */}
      {hasOpened ? (
        <Suspense fallback={null}>
          <NotificationInbox
            opened={isOpen}
            onClose={() => {
              setIsOpen(false);
            }}
          />
        </Suspense>
      ) : null}
      {(count.data?.forcePending ?? 0) > 0 ? (
        <Suspense fallback={null}>
          <ForceNotices />
        </Suspense>
      ) : null}
    </>
  );
}
