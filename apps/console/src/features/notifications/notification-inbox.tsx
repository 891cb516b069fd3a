import {
  ActionIcon,
  Box,
  Button,
  Drawer,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboxNotification } from '@rpm/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { NotificationTime, NotificationTypeBadge, notificationText } from './notification-content';
import { unreadCountQuery } from './notification-count';
import { consoleLink } from './notification-text';
import { applyReadCount, inboxQuery, markAllRead, markRead, type InboxFilter } from './notifications-api';

const CheckIcon = () => (
  <svg
    width={18}
    height={18}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </svg>
);

function InboxItem({
  notification,
  onOpen,
  onMarkRead,
  isMarking,
}: {
  notification: InboxNotification;
  onOpen: (notification: InboxNotification) => void;
  onMarkRead: (notification: InboxNotification) => void;
  isMarking: boolean;
}) {
  const { t } = useTranslation('notifications');
  const session = useSession();
  const { title, body } = notificationText(t, notification);
  const link = consoleLink(session.area, notification.link);
  const isUnread = !notification.read;
  const content = (
    <Stack gap={4} component="span">
      <Group gap="xs" component="span">
        {isUnread ? (
          <Box
            component="span"
            w={8}
            h={8}
            bg="blue.7"
            style={{ borderRadius: '50%', flexShrink: 0 }}
            aria-hidden="true"
            data-testid="notification-unread-dot"
          />
        ) : null}
        <NotificationTypeBadge type={notification.type} />
        {notification.force ? (
          <Text component="span" fz="xs" fw={600} c="red.8">
            {t('force.heading')}
          </Text>
        ) : null}
      </Group>
      <Text
        component="span"
        display="block"
        fz="sm"
        fw={isUnread ? 700 : 500}
        data-testid="notification-title"
      >
        {isUnread ? <VisuallyHidden>{`${t('unread')}: `}</VisuallyHidden> : null}
        {title}
      </Text>
      {body === '' ? null : (
        <Text
          component="span"
          display="block"
          fz="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="notification-body"
        >
          {body}
        </Text>
      )}
      <Text component="span" display="block" fz="xs" c="dimmed">
        <NotificationTime at={notification.createdAt} />
      </Text>
    </Stack>
  );
  const open = () => {
    onOpen(notification);
  };
  return (
    <Box
      component="li"
      p="sm"
      bg={isUnread ? 'blue.0' : undefined}
      style={{
        border: `1px solid var(--mantine-color-${isUnread ? 'blue-1' : 'gray-2'})`,
        borderRadius: 'var(--mantine-radius-md)',
        listStyle: 'none',
      }}
      data-testid="notification-item"
      data-read={notification.read}
    >
      <Group wrap="nowrap" align="flex-start" gap="xs">
        {link === null ? (
          <UnstyledButton onClick={open} style={{ flex: 1, minWidth: 0 }}>
            {content}
          </UnstyledButton>
        ) : (
          <UnstyledButton component={Link} to={link} onClick={open} style={{ flex: 1, minWidth: 0 }}>
            {content}
          </UnstyledButton>
        )}
        {isUnread ? (
          <Tooltip label={t('markRead')}>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`${t('markRead')}: ${title}`}
              loading={isMarking}
              onClick={() => {
                onMarkRead(notification);
              }}
            >
              <CheckIcon />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    </Box>
  );
}

function InboxList({ filter, onNavigate }: { filter: InboxFilter; onNavigate: () => void }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const inbox = useInfiniteQuery(inboxQuery(filter));
  const read = useMutation({
    mutationFn: markRead,
    onSuccess: (count) => {
      applyReadCount(queryClient, count);
    },
  });

  if (inbox.isPending) return <LoadingState />;
  if (inbox.isError)
    return (
      <ErrorState
        error={inbox.error}
        title={t('loadError')}
        onRetry={() => {
          void inbox.refetch();
        }}
      />
    );
  const items = inbox.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <EmptyList title={filter === 'unread' ? t('emptyUnread') : t('empty')} />;
  return (
    <Stack gap="md">
      <Stack component="ul" gap={6} m={0} p={0} data-testid="notification-list">
        {items.map((notification) => (
          <InboxItem
            key={notification.id}
            notification={notification}
            isMarking={read.isPending && read.variables === notification.id}
            onMarkRead={(item) => {
              read.mutate(item.id);
            }}
            onOpen={(item) => {
              if (!item.read) read.mutate(item.id);
              if (item.link !== null) onNavigate();
            }}
          />
        ))}
      </Stack>
      {inbox.hasNextPage ? (
        <Button
          variant="light"
          color="gray"
          loading={inbox.isFetchingNextPage}
          onClick={() => {
            void inbox.fetchNextPage();
          }}
        >
          {t('showMore')}
        </Button>
      ) : null}
    </Stack>
  );
}

/** The inbox drawer: the user's notifications, newest first, all or unread only. */
export function NotificationInbox({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<InboxFilter>('all');
  const count = useQuery(unreadCountQuery());
  const readAll = useMutation({
    mutationFn: markAllRead,
    onSuccess: (answer) => {
      applyReadCount(queryClient, answer);
    },
  });
  const unread = count.data?.unread ?? 0;
  // Force notices stay unread after "read all": only the others can be marked.
  const markable = unread - (count.data?.forcePending ?? 0);

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="md"
      title={t('title')}
      closeButtonProps={{ 'aria-label': t('close') }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      data-testid="notification-inbox"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <SegmentedControl
            size="xs"
            aria-label={t('filterLabel')}
            value={filter}
            onChange={(value) => {
              setFilter(value === 'unread' ? 'unread' : 'all');
            }}
            data={[
              { value: 'all', label: t('filterAll') },
              { value: 'unread', label: t('filterUnread') },
            ]}
          />
          <Button
            size="xs"
            variant="subtle"
            leftSection={<CheckIcon />}
            disabled={markable <= 0}
            loading={readAll.isPending}
            onClick={() => {
              readAll.mutate();
            }}
          >
            {t('markAllRead')}
          </Button>
        </Group>
        <InboxList filter={filter} onNavigate={onClose} />
      </Stack>
    </Drawer>
  );
}
