import { Grid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { profileQuery } from './account-api';
import { AvatarCard } from './avatar-card';
import { ProfileForm } from './profile-form';

/** Profile tab: the photo beside the edit form, both from one load of the profile. */
export function ProfileTab() {
  const { t } = useTranslation();
  const session = useSession();
  const profile = useQuery(profileQuery(session.user.userId));

  if (profile.isPending) return <LoadingState label={t('profile.loading')} />;
  if (profile.isError)
    return (
      <ErrorState
        error={profile.error}
        title={t('profile.loadFailed')}
        onRetry={() => void profile.refetch()}
      />
    );
  return (
    <Grid gap="xl">
      <Grid.Col span={3}>
        <AvatarCard profile={profile.data} />
      </Grid.Col>
      <Grid.Col span={9}>
        {/* Keyed by the profile's id so a reload after another tab's change starts from fresh values. */}
        <ProfileForm key={profile.data.id} profile={profile.data} />
      </Grid.Col>
    </Grid>
  );
}
