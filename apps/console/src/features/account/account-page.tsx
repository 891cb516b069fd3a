import { Stack, Tabs, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { ActivityTab } from './activity-tab';
import { ChangePasswordTab } from './change-password-tab';
import { DeactivateTab } from './deactivate-tab';
import { FaqTab } from './faq-tab';
import { LegalTab } from './legal-tab';
import { PreferencesTab } from './preferences-tab';
import { ProfileTab } from './profile-tab';
import { QualificationTab } from './qualification-tab';
import { useSession } from '../shell/session-context';
import { UnitsTab } from './units-tab';

// The notification preferences come with their own catalogue, fetched when the tab opens.
const NotificationPreferencesTab = lazy(() =>
  import('../notifications/notification-preferences-tab').then((module) => ({
    default: module.NotificationPreferencesTab,
  })),
);

// The feedback form (spec §2 feedback form) with its own strings, fetched when the tab opens.
const FeedbackTab = lazy(() =>
  import('../feedback/feedback-tab').then((module) => ({ default: module.FeedbackTab })),
);

/** The tabs of spec §2 account settings that the server supports today, in menu order. */
export const ACCOUNT_TABS = [
  'profile',
  'qualification',
  'preferences',
  'units',
  'notifications',
  'password',
  'deactivate',
  'activity',
  'legal',
  'faq',
  'feedback',
] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

/** The tabs a role has: the qualification and licenses are a doctor's own. */
function tabsOf(role: string): readonly AccountTab[] {
  return ACCOUNT_TABS.filter((name) => name !== 'qualification' || role === 'DOCTOR');
}

/**
 * Account settings. The open tab is in the address (?tab=password) so it survives a reload and
 * can be linked to.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const session = useSession();
  const tabs = tabsOf(session.user.role);
  const requested = searchParams.get('tab');
  const tab: AccountTab = tabs.find((name) => name === requested) ?? 'profile';
  usePageTitle(t('account.pageTitle'));

  return (
    <Stack gap="lg" maw={1040}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('account.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('account.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={tab}
        onChange={(value) => {
          const chosen = tabs.find((name) => name === value);
          if (chosen !== undefined)
            setSearchParams(chosen === 'profile' ? {} : { tab: chosen }, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List>
          {tabs.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {t(`account.tabs.${name}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profile" pt="lg">
          <ProfileTab />
        </Tabs.Panel>
        {tabs.includes('qualification') ? (
          <Tabs.Panel value="qualification" pt="lg">
            <QualificationTab />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="preferences" pt="lg">
          <PreferencesTab />
        </Tabs.Panel>
        <Tabs.Panel value="units" pt="lg">
          <UnitsTab />
        </Tabs.Panel>
        <Tabs.Panel value="notifications" pt="lg">
          <Suspense fallback={<LoadingState />}>
            <NotificationPreferencesTab />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="password" pt="lg">
          <ChangePasswordTab />
        </Tabs.Panel>
        <Tabs.Panel value="deactivate" pt="lg">
          <DeactivateTab />
        </Tabs.Panel>
        <Tabs.Panel value="activity" pt="lg">
          <ActivityTab />
        </Tabs.Panel>
        <Tabs.Panel value="legal" pt="lg">
          <LegalTab />
        </Tabs.Panel>
        <Tabs.Panel value="faq" pt="lg">
          <FaqTab />
        </Tabs.Panel>
        <Tabs.Panel value="feedback" pt="lg">
          <Suspense fallback={<LoadingState />}>
            <FeedbackTab />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
