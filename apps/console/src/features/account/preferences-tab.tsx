import { useMemo, useState, type SubmitEvent } from 'react';
import { Alert, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isSupportedTimeZone, type Profile } from '@rpm/contracts';
import { SUPPORTED_LANGUAGES, type SupportedLanguage } from '@rpm/i18n';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { changeLanguage, currentLanguage, isSupportedLanguage } from '../../i18n';
import { messageText, notifySuccess } from '../../lib/notify';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { profileQuery, updateLanguage, updateTimeZone } from './account-api';

/**
 * Every IANA zone the browser lists, plus UTC and the profile's own zone (the browser may list a
 * zone under another name: Asia/Saigon for Asia/Ho_Chi_Minh).
 */
function timeZoneOptions(current: string | null): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const withUtc = zones.includes('UTC') ? zones : ['UTC', ...zones];
  return current === null || withUtc.includes(current) ? withUtc : [current, ...withUtc];
}

function PreferencesForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation(['common', 'account']);
  const session = useSession();
  const queryClient = useQueryClient();
  const zones = useMemo(() => timeZoneOptions(profile.timeZone || null), [profile.timeZone]);
  const [language, setLanguage] = useState<SupportedLanguage>(
    isSupportedLanguage(profile.language) ? profile.language : currentLanguage(),
  );
  const [timeZone, setTimeZone] = useState<string | null>(profile.timeZone || null);
  const [timeZoneError, setTimeZoneError] = useState<string | undefined>();

  const save = useMutation({
    // Two calls (spec §7 update-language, update-time-zone), only for what changed.
    mutationFn: async (): Promise<Profile> => {
      let updated = profile;
      if (language !== profile.language) updated = await updateLanguage(language);
      if (timeZone !== null && timeZone !== profile.timeZone) updated = await updateTimeZone(timeZone);
      return updated;
    },
    meta: { errorDisplay: 'inline' },
    onSuccess: (updated) => {
      queryClient.setQueryData(profileQuery(session.user.userId).queryKey, updated);
      // The saved language is also the interface's, at once.
      if (isSupportedLanguage(updated.language)) changeLanguage(updated.language);
      notifySuccess(t('account:preferences.saved'));
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (timeZone === null || !isSupportedTimeZone(timeZone)) {
      setTimeZoneError(t('account:preferences.timeZoneRequired'));
      return;
    }
    if (!save.isPending) save.mutate();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account:preferences.formLabel')}>
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Stack gap="md">
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Select
            label={t('account:preferences.language')}
            description={t('account:preferences.languageHint')}
            data={SUPPORTED_LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
            value={language}
            onChange={(value) => {
              if (isSupportedLanguage(value)) setLanguage(value);
            }}
            allowDeselect={false}
          />
          <Select
            label={t('account:preferences.timeZone')}
            description={t('account:preferences.timeZoneHint')}
            placeholder={t('account:preferences.timeZonePlaceholder')}
            data={zones}
            value={timeZone}
            onChange={(value) => {
              setTimeZone(value);
              setTimeZoneError(undefined);
            }}
            error={timeZoneError}
            searchable
            limit={200}
            nothingFoundMessage={t('account:preferences.timeZoneNoMatch')}
            allowDeselect={false}
          />
          <Group justify="space-between">
            <Text fz="xs" c="dimmed">
              {t('account:preferences.browserZone', { zone: Intl.DateTimeFormat().resolvedOptions().timeZone })}
            </Text>
            <Button type="submit" loading={save.isPending}>
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** Language and time zone tab. */
export function PreferencesTab() {
  const { t } = useTranslation(['common', 'account']);
  const session = useSession();
  const profile = useQuery(profileQuery(session.user.userId));
  if (profile.isPending) return <LoadingState />;
  if (profile.isError)
    return (
      <ErrorState
        error={profile.error}
        title={t('profile.loadFailed')}
        onRetry={() => void profile.refetch()}
      />
    );
  return <PreferencesForm profile={profile.data} />;
}
