import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { NOTIFICATIONS_QUERY_ROOT } from '../notifications/notification-count';
import { announcementViewQuery } from './announcements-api';
import { AnnouncementBody } from './announcement-body';

/** An announcement as its recipient reads it, opened from the bell (its notice is then read). */
export function AnnouncementViewPage() {
  const { t } = useTranslation('notifications');
  const { id = '' } = useParams();
  const session = useSession();
  const queryClient = useQueryClient();
  const view = useQuery(announcementViewQuery(id));
  usePageTitle(view.data?.title ?? t('announcements.pageTitle'));
  // Opening it read its notice: the bell's count follows.
  useEffect(() => {
    if (view.isSuccess) void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
  }, [view.isSuccess, queryClient]);
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to={`/${session.area}`} fz="sm">
        {t('announcements.home')}
      </Anchor>
      {view.isPending ? (
        <LoadingState />
      ) : view.isError ? (
        <ErrorState
          error={view.error}
          onRetry={() => {
            void view.refetch();
          }}
        />
      ) : (
        <Paper withBorder p="lg" radius="md" component="article" data-testid="announcement-view">
          <Stack gap="sm">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
              {t('announcements.kicker')}
            </Text>
            <Title order={1} fz={26}>
              {view.data.title}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('announcements.byline', { author: view.data.authorName, at: formatDateTime(view.data.publishedAt) })}
            </Text>
            <AnnouncementBody html={view.data.bodyHtml} />
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
