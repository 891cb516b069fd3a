import { Box, Button, Center, Group, Loader, Paper, Stack, Text, Title, Transition } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigation, useRouteError } from 'react-router';
import { isChunkLoadError } from './chunk-load-error';
import { usePageTitle } from './use-page-title';

/** A fast chunk shows nothing; a slow one says so. */
const PENDING_NOTICE_DELAY_MS = 200;

/**
 * The first screen's code is still on its way (routes load their pages lazily): the whole window,
 * as the login and startup screens that follow fill it, so nothing jumps when they arrive.
 */
export function RouteLoadingScreen() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" bg="gray.0" p="lg">
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" />
        <Text c="dimmed">{t('routeLoading.page')}</Text>
      </Group>
    </Center>
  );
}

/**
 * While the next page's code loads, the current page stays and a small notice floats over the top
 * of the window (fixed, so the layout does not move).
 */
export function NavigationPendingNotice() {
  const { t } = useTranslation();
  const isLoading = useNavigation().state === 'loading';
  return (
    <Transition mounted={isLoading} transition="fade" duration={150} enterDelay={PENDING_NOTICE_DELAY_MS}>
      {(styles) => (
        <Paper
          role="status"
          aria-live="polite"
          data-testid="route-pending"
          withBorder
          shadow="md"
          radius="xl"
          px="md"
          py={6}
          pos="fixed"
          top={12}
          left="50%"
          style={{ ...styles, transform: 'translateX(-50%)', zIndex: 400 }}
        >
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" />
            <Text fz="sm">{t('routeLoading.page')}</Text>
          </Group>
        </Paper>
      )}
    </Transition>
  );
}

/**
 * A route that failed: its code did not load (after a deploy the old file names are gone, or the
 * network dropped), so the way out is a reload; or a page broke while rendering (the spec's default
 * message). `fullPage` when no layout is around it.
 */
export function RouteErrorPage({ fullPage = false }: { fullPage?: boolean }) {
  const { t } = useTranslation(['common', 'errors']);
  const isChunkFailure = isChunkLoadError(useRouteError());
  usePageTitle(t('routeError.pageTitle'));
  const content = (
    <Center mih="60vh" p="xl">
      <Stack align="center" gap="sm" maw={520} ta="center" role="alert">
        <Title order={1} fz={28}>
          {isChunkFailure ? t('routeError.chunkTitle') : t('routeError.title')}
        </Title>
        <Text c="dimmed">
          {isChunkFailure ? t('routeError.chunkDescription') : t('errors:common.default')}
        </Text>
        <Button
          mt="md"
          onClick={() => {
            window.location.reload();
          }}
        >
          {t('routeError.reload')}
        </Button>
      </Stack>
    </Center>
  );
  return fullPage ? (
    <Box mih="100vh" bg="gray.0">
      {content}
    </Box>
  ) : (
    content
  );
}
