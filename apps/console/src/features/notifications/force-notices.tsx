import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { NotificationTime, NotificationTypeBadge, notificationText } from './notification-content';
import { applyReadCount, forceStatusQuery, markRead } from './notifications-api';

/**
 * Mandatory notices (spec §7 status/force), oldest first, over every screen: the dialog cannot be
 * dismissed, only acknowledged ("I have read this" reads the notice), and shows the next one until
 * none waits.
 */
export function ForceNotices() {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const status = useQuery(forceStatusQuery());
  const acknowledge = useMutation({
    mutationFn: markRead,
    meta: { errorDisplay: 'inline' },
    onSuccess: (count) => {
      applyReadCount(queryClient, count);
    },
  });
  const notice = status.data?.oldest ?? null;
  if (notice === null) return null;
  const { title, body } = notificationText(t, notice);
  const pending = status.data?.pending ?? 1;

  return (
    <Modal
      opened
      onClose={() => undefined}
      closeOnEscape={false}
      closeOnClickOutside={false}
      withCloseButton={false}
      centered
      size="lg"
      title={t('force.heading')}
      styles={{ title: { fontWeight: 700, color: 'var(--mantine-color-red-8)' } }}
      data-testid="force-notice"
    >
      <Stack gap="md">
        <Group gap="xs">
          <NotificationTypeBadge type={notice.type} />
          <Text fz="xs" c="dimmed">
            <NotificationTime at={notice.createdAt} />
          </Text>
        </Group>
        <Text fw={700} fz="lg" data-testid="force-notice-title">
          {title}
        </Text>
        {body === '' ? null : (
          <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="force-notice-body">
            {body}
          </Text>
        )}
        {acknowledge.isError ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(acknowledge.error))}
          </Alert>
        ) : null}
        <Group justify="space-between" gap="sm">
          <Text fz="sm" c="dimmed" data-testid="force-notice-pending">
            {pending > 1 ? t('force.pending', { count: pending }) : null}
          </Text>
          <Button
            // The next notice loads after each acknowledgement: one click, one notice.
            loading={acknowledge.isPending || status.isFetching}
            data-autofocus
            onClick={() => {
              acknowledge.mutate(notice.id);
            }}
          >
            {t('force.acknowledge')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
