import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PulseIcon } from './icons';
import { LanguageSwitch } from './language-switch';

/** Top bar of the pages that render without a session (privacy terms, 404). */
export function PublicHeader() {
  const { t } = useTranslation();
  return (
    <Group
      component="header"
      justify="space-between"
      wrap="nowrap"
      px={{ base: 'sm', xs: 'xl' }}
      h={60}
      bg="white"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Anchor component={Link} to="/" underline="never" c="inherit">
        <Group gap="xs">
          <PulseIcon width={22} height={22} color="var(--mantine-primary-color-filled)" />
          <Text fw={700}>{t('app.name')}</Text>
        </Group>
      </Anchor>
      <LanguageSwitch />
    </Group>
  );
}
