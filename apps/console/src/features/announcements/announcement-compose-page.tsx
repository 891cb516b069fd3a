import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementWrite } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../lib/notify';
import { usePageTitle } from '../shell/use-page-title';
import { createAnnouncement, invalidateAnnouncements } from './announcements-api';
import { AnnouncementForm } from './announcement-form';

/** Compose a new announcement (spec §2 "announcements (compose, ...)"). */
export function AnnouncementComposePage() {
  const { t } = useTranslation('notifications');
  usePageTitle(t('announcements.composeTitle'));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const save = useMutation({
    mutationFn: (input: AnnouncementWrite) => createAnnouncement(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      invalidateAnnouncements(queryClient);
      notifySuccess(t(`announcements.saved.${saved.status}`));
      void navigate('..', { relative: 'path' });
    },
  });
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Anchor component={Link} to=".." relative="path" fz="sm">
            {t('announcements.back')}
          </Anchor>
          <Title order={1} fz={26}>
            {t('announcements.composeTitle')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('announcements.composeHint')}
          </Text>
        </Stack>
      </Group>
      <AnnouncementForm
        isPending={save.isPending}
        error={save.error}
        onSubmit={(input) => {
          save.mutate(input);
        }}
      />
    </Stack>
  );
}
