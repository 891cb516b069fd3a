import { Anchor, Badge, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Feedback, FeedbackStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { feedbackImagePath } from './feedback-api';

const STATUS_COLOR: Record<FeedbackStatus, string> = {
  NEW: 'blue',
  IN_PROGRESS: 'yellow',
  RESOLVED: 'green',
  CLOSED: 'gray',
};

export function FeedbackStatusBadge({ status }: { status: FeedbackStatus }) {
  const { t } = useTranslation('account');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="feedback-status">
      {t(`feedback.statuses.${status}`)}
    </Badge>
  );
}

/** The images of one feedback, each opening full size in a new tab (same origin, the session's cookie). */
export function FeedbackImages({ feedback, isOwn = false }: { feedback: Feedback; isOwn?: boolean }) {
  const { t } = useTranslation('account');
  if (feedback.images.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="feedback-images">
      {feedback.images.map((image) => {
        const src = feedbackImagePath(feedback.id, image.id, isOwn);
        return (
          <Anchor key={image.id} href={src} target="_blank" rel="noreferrer" aria-label={t('feedback.openImage', { name: image.name })}>
            <Paper withBorder p={4}>
              <Image src={src} alt={image.name} h={120} fit="contain" />
            </Paper>
          </Anchor>
        );
      })}
    </SimpleGrid>
  );
}

/** Customer care's replies, oldest first. */
export function FeedbackReplies({ feedback }: { feedback: Feedback }) {
  const { t, i18n } = useTranslation('account');
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  if (feedback.replies.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {t('feedback.noReplies')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="feedback-replies">
      {feedback.replies.map((reply) => (
        <Paper key={reply.id} withBorder p="sm" bg="var(--mantine-color-gray-0)">
          <Text fz="xs" c="dimmed">
            {t('feedback.replyBy', { name: reply.author?.fullName ?? t('feedback.customerCare'), at: format.format(new Date(reply.createdAt)) })}
          </Text>
          <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {reply.body}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}
