import type { ReactNode } from 'react';
import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { MonitorIcon } from './icons';
import { LanguageSwitch } from './language-switch';
import { usePageTitle } from './use-page-title';

/** Below this width the console's tables and side-by-side panels do not fit (spec §2). */
export const DESKTOP_MIN_WIDTH_PX = 768;

function DesktopOnlyNotice() {
  const { t } = useTranslation();
  usePageTitle(t('desktopOnly.pageTitle'));
  return (
    <Center mih="100vh" p="lg" bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={420}>
        <ThemeIcon size={64} radius="xl" variant="light">
          <MonitorIcon width={32} height={32} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {t('desktopOnly.title')}
        </Title>
        <Text>{t('desktopOnly.message')}</Text>
        <Text c="dimmed" fz="sm">
          {t('desktopOnly.hint')}
        </Text>
        <LanguageSwitch size="sm" />
      </Stack>
    </Center>
  );
}

/** Phones get a full-page notice instead of the console; nothing else starts. */
export function DesktopOnly({ children }: { children: ReactNode }) {
  // Read synchronously: the default (read in an effect) would flash the console first.
  const isPhone = useMediaQuery(`(max-width: ${String(DESKTOP_MIN_WIDTH_PX - 1)}px)`, false, {
    getInitialValueInEffect: false,
  });
  return <>{isPhone ? <DesktopOnlyNotice /> : children}</>;
}
