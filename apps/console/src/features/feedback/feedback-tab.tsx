import { useState } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { myFeedbackQuery } from './feedback-api';
import { FeedbackForm } from './feedback-form';
import { FeedbackImages, FeedbackReplies, FeedbackStatusBadge } from './feedback-parts';

const PAGE_SIZE = 10;

/** The account page's feedback tab: the form, then what the person sent with the replies. */
export function FeedbackTab() {
  const { t, i18n } = useTranslation('account');
  const [page, setPage] = useState(0);
  const mine = useQuery(myFeedbackQuery(page, PAGE_SIZE));
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <Stack gap="xl">
      <FeedbackForm />
      <Stack gap="sm" maw={720}>
        <Title order={2} fz="lg">
          {t('feedback.mine.title')}
        </Title>
        {mine.isPending ? <LoadingState /> : null}
        {mine.isError ? <ErrorState error={mine.error} onRetry={() => void mine.refetch()} /> : null}
        {mine.data?.total === 0 ? <EmptyList title={t('feedback.mine.empty')} /> : null}
        {mine.data?.items.map((item) => (
          <Paper key={item.id} withBorder p="md" data-testid="my-feedback">
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600}>
                  {t(`feedback.types.${item.type}`)} · {t(`feedback.categories.${item.category}`)}
                </Text>
                <Group gap="xs">
                  <Text fz="xs" c="dimmed">
                    {format.format(new Date(item.createdAt))}
                  </Text>
                  <FeedbackStatusBadge status={item.status} />
                </Group>
              </Group>
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {item.description}
              </Text>
              <FeedbackImages feedback={item} isOwn />
              <FeedbackReplies feedback={item} />
            </Stack>
          </Paper>
        ))}
        {mine.data && mine.data.total > PAGE_SIZE ? (
          <TablePager page={page} size={PAGE_SIZE} total={mine.data.total} onChange={setPage} />
        ) : null}
      </Stack>
    </Stack>
  );
}
