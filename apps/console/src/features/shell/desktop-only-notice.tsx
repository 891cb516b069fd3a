import { useState, type ReactNode } from 'react';
import { Anchor, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { MonitorIcon } from './icons';
import { LanguageSwitch } from './language-switch';
import { usePageTitle } from './use-page-title';

/** Below this width the console's tables and side-by-side panels do not fit (spec §2). */
export const DESKTOP_MIN_WIDTH_PX = 768;

/** Set for the browser tab's session once the person chose to go on on a small screen. */
export const CONTINUE_ANYWAY_KEY = 'rpm.desktopOnly.continued';

function hasContinued(): boolean {
  try {
    return sessionStorage.getItem(CONTINUE_ANYWAY_KEY) === '1';
  } catch {
    // Storage can be switched off; the notice then asks again after a reload.
    return false;
  }
}

function rememberContinued(): void {
  try {
    sessionStorage.setItem(CONTINUE_ANYWAY_KEY, '1');
  } catch {
    // Storage switched off: the choice holds until the page is reloaded.
  }
}

function DesktopOnlyNotice({ onContinue }: { onContinue: () => void }) {
  const { t } = useTranslation();
  usePageTitle(t('desktopOnly.pageTitle'));
  return (
    <Center component="main" mih="100vh" p="lg" bg="gray.0" data-testid="desktop-only-notice">
      <Stack align="center" gap="md" ta="center" maw={420}>
        <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
          <MonitorIcon width={32} height={32} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {t('desktopOnly.title')}
        </Title>
        <Text>{t('desktopOnly.message')}</Text>
        <Text c="dimmed" fz="sm">
          {t('desktopOnly.hint')}
        </Text>
        {/* The patient app is served by the same server (apps/patient); a full page load, not a console route. */}
        <Anchor href="/app/" fz="sm">
          {t('desktopOnly.openApp')}
        </Anchor>
        <LanguageSwitch size="sm" />
        <Anchor component="button" type="button" fz="sm" onClick={onContinue}>
          {t('desktopOnly.continue')}
        </Anchor>
      </Stack>
    </Center>
  );
}

/**
 * The signed-in console on a screen narrower than {@link DESKTOP_MIN_WIDTH_PX}: a full-page notice
 * instead, and nothing behind it starts, until the person chooses to continue anyway (remembered
 * for the browser tab's session). Public pages (sign-in, registration, legal) are not wrapped:
 * they work on phones.
 */
export function DesktopOnly({ children }: { children: ReactNode }) {
  // Read synchronously: the default (read in an effect) would flash the console first.
  const isNarrow = useMediaQuery(`(max-width: ${String(DESKTOP_MIN_WIDTH_PX - 1)}px)`, false, {
    getInitialValueInEffect: false,
  });
  const [continued, setContinued] = useState(hasContinued);
  if (isNarrow && !continued) {
    return (
      <DesktopOnlyNotice
        onContinue={() => {
          rememberContinued();
          setContinued(true);
        }}
      />
    );
  }
  return <>{children}</>;
}
