import { useState } from 'react';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ANNOUNCEMENT_EDITABLE, type AnnouncementDetail, type AnnouncementWrite } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { announcementDetailQuery, cancelAnnouncement, invalidateAnnouncements, updateAnnouncement } from './announcements-api';
import { AnnouncementBody } from './announcement-body';
import { AnnouncementForm } from './announcement-form';
import { AnnouncementStatusBadge } from './announcements-page';
import { useAudienceLabel } from './audience-label';

/**
 * One announcement for those who manage it: a draft or scheduled one is edited (or canceled); a
 * published or canceled one is shown as sent, with its recipients and how many have read it.
 */
export function AnnouncementManagePage() {
  const { t } = useTranslation('notifications');
  const { id = '' } = useParams();
  const detail = useQuery(announcementDetailQuery(id));
  usePageTitle(detail.data?.title ?? t('announcements.pageTitle'));
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="../.." relative="path" fz="sm">
        {t('announcements.back')}
      </Anchor>
      {detail.isPending ? (
        <LoadingState />
      ) : detail.isError ? (
        <ErrorState
          error={detail.error}
          onRetry={() => {
            void detail.refetch();
          }}
        />
      ) : (
        <Loaded announcement={detail.data} />
      )}
    </Stack>
  );
}

function Loaded({ announcement }: { announcement: AnnouncementDetail }) {
  const { t } = useTranslation('notifications');
  const audienceLabel = useAudienceLabel();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [isCancelOpen, setCancelOpen] = useState(false);
  const isEditable = ANNOUNCEMENT_EDITABLE.includes(announcement.status);
  const save = useMutation({
    mutationFn: (input: AnnouncementWrite) => updateAnnouncement(announcement.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      invalidateAnnouncements(queryClient);
      notifySuccess(t(`announcements.saved.${saved.status}`));
      void navigate('../..', { relative: 'path' });
    },
  });
  const cancel = useMutation({
    mutationFn: () => cancelAnnouncement(announcement.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      invalidateAnnouncements(queryClient);
      setCancelOpen(false);
      notifySuccess(t('announcements.canceled'));
    },
  });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Group gap="sm">
          <Title order={1} fz={26}>
            {announcement.title}
          </Title>
          <AnnouncementStatusBadge status={announcement.status} />
        </Group>
        {isEditable ? (
          <Button
            color="red"
            variant="light"
            onClick={() => {
              setCancelOpen(true);
            }}
          >
            {t('announcements.cancel')}
          </Button>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <Fact label={t('announcements.audience')} value={audienceLabel(announcement.audience)} />
        <Fact label={t('announcements.author')} value={announcement.authorName} />
        <Fact
          label={t('announcements.when')}
          value={
            announcement.publishedAt !== null || announcement.publishAt !== null
              ? formatDateTime(announcement.publishedAt ?? announcement.publishAt ?? '')
              : '—'
          }
        />
        <Fact
          label={t('announcements.reads')}
          value={t('announcements.readCount', { read: announcement.read, recipients: announcement.recipients })}
          testId="announcement-detail-reads"
        />
      </SimpleGrid>
      {isEditable ? (
        <AnnouncementForm
          existing={announcement}
          isPending={save.isPending}
          error={save.error}
          onSubmit={(input) => {
            save.mutate(input);
          }}
        />
      ) : (
        <Paper withBorder p="lg" radius="md" maw={880}>
          <AnnouncementBody html={announcement.bodyHtml} />
        </Paper>
      )}
      <ConfirmDialog
        isOpen={isCancelOpen}
        title={t('announcements.cancelTitle')}
        text={t('announcements.cancelText')}
        confirmLabel={t('announcements.cancel')}
        backLabel={t('announcements.keep')}
        confirmColor="red"
        isPending={cancel.isPending}
        error={cancel.error}
        onConfirm={() => {
          cancel.mutate();
        }}
        onClose={() => {
          setCancelOpen(false);
        }}
      />
    </Stack>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" fw={600} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}
