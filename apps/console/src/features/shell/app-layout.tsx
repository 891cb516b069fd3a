import { ActionIcon, AppShell, Avatar, Button, Group, NavLink, Stack, Text, Tooltip } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useMatch } from 'react-router';
import { isApiError } from '../../api/api-error';
import { notifyError } from '../../lib/notify';
import { useDisplayTimeZone } from '../account/use-display-time-zone';
import { signOut } from '../auth/auth-api';
import { useEndSession } from '../auth/use-end-session';
import { LevelSwitcher } from '../levels/level-switcher';
import { NotificationBellSlot } from '../notifications/notification-bell-slot';
import { LiveIndicator } from '../realtime/live-indicator';
import { LiveLayer } from '../realtime/live-layer';
import { HeaderBrand } from './branding';
import { LogoutIcon } from './icons';
import { LanguageSwitch } from './language-switch';
import { areaPath, NAV_ITEMS, visibleNavItems, type NavItem } from './navigation';
import { organisationName, useSession } from './session-context';

function NavEntry({ item, to }: { item: NavItem; to: string }) {
  // Every entry's label is in `common` (navigation.ts): the menu fetches no feature's catalogue.
  const { t } = useTranslation();
  // The area home is active only on itself; other entries also for their sub-pages.
  const isActive = useMatch({ path: to, end: item.path === '' }) !== null;
  const Icon = item.icon;
  return (
    <NavLink
      component={Link}
      to={to}
      active={isActive}
      aria-current={isActive ? 'page' : undefined}
      label={t(item.labelKey)}
      leftSection={Icon ? <Icon /> : null}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );
}

function SignOutButton() {
  const { t } = useTranslation();
  const endSession = useEndSession();
  const mutation = useMutation({
    mutationFn: signOut,
    // A 401 here means the session was already gone, which is what the user asked for.
    meta: { handlesAuthErrors: true, errorDisplay: 'inline' },
    onSuccess: () => {
      endSession('signedOut');
    },
    onError: (error) => {
      if (isApiError(error) && (error.kind === 'unauthorized' || error.kind === 'loggedInElsewhere')) {
        endSession('signedOut');
        return;
      }
      // Otherwise the cookie may still be valid: say so rather than pretend the user is signed out.
      notifyError(error, 'header.signOutFailed');
    },
  });
  const signOutNow = () => {
    mutation.mutate();
  };
  // Wide screens show the words; narrower ones (down to 768 px) an icon with the same name.
  return (
    <>
      <Button
        visibleFrom="lg"
        variant="subtle"
        color="gray"
        leftSection={<LogoutIcon />}
        loading={mutation.isPending}
        onClick={signOutNow}
      >
        {t('header.signOut')}
      </Button>
      <Tooltip label={t('header.signOut')}>
        <ActionIcon
          hiddenFrom="lg"
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={t('header.signOut')}
          loading={mutation.isPending}
          onClick={signOutNow}
        >
          <LogoutIcon />
        </ActionIcon>
      </Tooltip>
    </>
  );
}

/** The signed-in frame: header (product, tenant, language, user, sign-out) and role navigation. */
export function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const items = visibleNavItems(NAV_ITEMS, session.permissions);
  const organisation = organisationName(session);
  // Pages wait for the user's time zone (one request), so none is drawn in the wrong one.
  const isTimeZoneKnown = useDisplayTimeZone();

  return (
    <LiveLayer>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: { base: 200, lg: 240 }, breakpoint: 0 }}
        padding={{ base: 'md', lg: 'xl' }}
      >
        <AppShell.Header px={{ base: 'sm', lg: 'lg' }}>
          <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" miw={0} style={{ flexShrink: 1 }}>
              <HeaderBrand />
              {organisation ? (
                <Text
                  c="dimmed"
                  fz="sm"
                  truncate="end"
                  maw={{ base: 140, lg: 280 }}
                  data-testid="tenant-name"
                >
                  {organisation}
                </Text>
              ) : null}
            </Group>
            <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
              <LiveIndicator />
              <LevelSwitcher />
              <LanguageSwitch />
              <NotificationBellSlot />
              <Group gap="xs" wrap="nowrap">
                <Tooltip label={`${session.user.fullName} · ${t(`roles.${session.user.role}`)}`}>
                  <Avatar color="initials" name={session.user.fullName} radius="xl" size={34} />
                </Tooltip>
                <Stack gap={0} visibleFrom="lg">
                  <Text fz="sm" fw={600} lh={1.2} data-testid="user-name">
                    {session.user.fullName}
                  </Text>
                  <Text fz="xs" c="dimmed" lh={1.2}>
                    {t(`roles.${session.user.role}`)}
                  </Text>
                </Stack>
              </Group>
              <SignOutButton />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="sm" aria-label={t('nav.label')} style={{ overflowY: 'auto' }}>
          <Stack gap={4}>
            {items.map((item) => (
              <NavEntry key={item.labelKey} item={item} to={areaPath(session.area, item.path)} />
            ))}
          </Stack>
        </AppShell.Navbar>
        <AppShell.Main bg="gray.0" miw={0}>
          {isTimeZoneKnown ? <Outlet /> : null}
        </AppShell.Main>
      </AppShell>
    </LiveLayer>
  );
}
