import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date';
import { InfoTile } from '../shell/info-tile';
import { LanguageSwitch } from '../shell/language-switch';
import { organisationName, useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';

/**
 * The signed-in account as the session knows it. Profile editing, password change and the
 * other account settings of spec §2 arrive with the account feature.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const session = useSession();
  const { user } = session;
  usePageTitle(t('account.pageTitle'));

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} fz={26}>
        {t('account.title')}
      </Title>
      <SimpleGrid cols={2} spacing="md">
        <InfoTile label={t('account.fullName')} value={user.fullName} />
        <InfoTile label={t('account.role')} value={t(`roles.${user.role}`)} />
        <InfoTile label={t('account.organisation')} value={organisationName(session) ?? t('home.platform')} />
        <InfoTile label={t('account.sessionUntil')} value={formatDateTime(user.expiresAt)} />
      </SimpleGrid>
      <Stack gap={6} align="flex-start">
        <Text fw={600}>{t('language.label')}</Text>
        <LanguageSwitch size="sm" />
      </Stack>
    </Stack>
  );
}
