import { useState } from 'react';
import { Alert, Avatar, Button, FileButton, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useSession } from '../shell/session-context';
import { avatarUrl, profileQuery, uploadAvatar } from './account-api';
import { AVATAR_TYPES, avatarProblem, type AvatarProblem } from './avatar-rules';

/** The profile photo with its upload button (spec §9: under 1 MB; png, jpeg, gif, webp). */
export function AvatarCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState(() => Date.now());
  const [problem, setProblem] = useState<AvatarProblem | null>(null);
  const fullName = [profile.firstName, profile.lastName].filter(Boolean).join(' ');

  const upload = useMutation({
    mutationFn: uploadAvatar,
    meta: { errorDisplay: 'inline' },
    onSuccess: (updated) => {
      queryClient.setQueryData(profileQuery(session.user.userId).queryKey, updated);
      setVersion(Date.now());
      notifySuccess(t('profile.avatarSaved'));
    },
  });

  const onFile = (file: File | null) => {
    if (!file) return;
    upload.reset();
    const found = avatarProblem(file);
    setProblem(found);
    if (!found) upload.mutate(file);
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack align="center" gap="sm">
        <Avatar
          src={profile.hasAvatar ? avatarUrl(version) : null}
          name={fullName}
          color="initials"
          size={112}
          radius={112}
          alt={t('profile.avatarAlt')}
          data-testid="profile-avatar"
        />
        <Text fw={600} ta="center">
          {fullName}
        </Text>
        <FileButton onChange={onFile} accept={AVATAR_TYPES.join(',')}>
          {(props) => (
            <Button {...props} variant="light" loading={upload.isPending}>
              {profile.hasAvatar ? t('profile.avatarChange') : t('profile.avatarUpload')}
            </Button>
          )}
        </FileButton>
        <Text fz="xs" c="dimmed" ta="center">
          {t('profile.avatarHint')}
        </Text>
        {problem || upload.isError ? (
          <Alert color="red" variant="light" role="alert" w="100%" data-testid="avatar-error">
            {problem ? t(`profile.${problem}`) : messageText(errorMessageFor(upload.error))}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
