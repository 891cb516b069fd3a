import type { ReactNode } from 'react';
import { Anchor, Box, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PulseIcon } from '../shell/icons';
import { LanguageSwitch } from '../shell/language-switch';

function BrandPanel() {
  const { t } = useTranslation();
  return (
    <Stack
      // On a phone the form takes the whole screen; the brand panel is for wider screens.
      visibleFrom="md"
      justify="space-between"
      p={48}
      style={{
        flex: '0 0 42%',
        background: 'linear-gradient(150deg, var(--mantine-primary-color-8), var(--mantine-primary-color-5))',
        color: 'var(--mantine-primary-color-contrast)',
      }}
    >
      <Group gap="sm">
        <PulseIcon width={30} height={30} />
        <Text fw={700} fz="xl">
          {t('app.name')}
        </Text>
      </Group>
      <Stack gap="md" maw={420}>
        <Title order={2} fz={30} lh={1.25}>
          {t('login.brandHeadline')}
        </Title>
        <List spacing="xs" c="inherit">
          <List.Item>{t('login.brandPoint1')}</List.Item>
          <List.Item>{t('login.brandPoint2')}</List.Item>
          <List.Item>{t('login.brandPoint3')}</List.Item>
        </List>
      </Stack>
      <Text fz="xs" opacity={0.8}>
        {t('login.brandFootnote')}
      </Text>
    </Stack>
  );
}

/**
 * The frame of the public account pages (sign in, forgot password, register): the brand panel,
 * the language switch and one card. `width` lets the registration form be wider than sign-in.
 */
export function AuthLayout({
  title,
  subtitle,
  width = 440,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  width?: number;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" style={{ display: 'flex' }}>
      <BrandPanel />
      <Stack
        component="main"
        flex={1}
        miw={0}
        bg="gray.0"
        p={{ base: 'sm', xs: 'xl' }}
        style={{ position: 'relative' }}
        justify="center"
        align="center"
      >
        <Box pos="absolute" top={{ base: 12, xs: 20 }} right={{ base: 12, xs: 24 }}>
          <LanguageSwitch />
        </Box>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', xs: 36 }} w="100%" maw={width} mt={48}>
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={1} fz={26}>
                {title}
              </Title>
              {subtitle ? (
                <Text c="dimmed" fz="sm">
                  {subtitle}
                </Text>
              ) : null}
            </Stack>
            {children}
          </Stack>
        </Paper>
        {footer}
        <Group gap="lg">
          <Anchor component={Link} to="/terms" fz="sm" c="dimmed">
            {t('nav.terms')}
          </Anchor>
          <Anchor component={Link} to="/privacy" fz="sm" c="dimmed">
            {t('nav.privacy')}
          </Anchor>
        </Group>
      </Stack>
    </Box>
  );
}
