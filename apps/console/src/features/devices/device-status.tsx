import { Badge } from '@mantine/core';
import { CONNECTION_STATUS_NAMES, type AppStatus, type ConnectionStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { BADGE_COLORS, type BadgeColor } from '../../theme';

// The colours live in theme.ts, where a test holds each to WCAG AA contrast.
const CONNECTION_COLORS = BADGE_COLORS.connectionStatus;
const APP_COLORS: Record<AppStatus, BadgeColor> = BADGE_COLORS.appStatus;

/** The connection status (spec §3 codes 1, 0, -1, 2) as a coloured badge. */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation('devices');
  const name = CONNECTION_STATUS_NAMES[status];
  return (
    <Badge
      color={CONNECTION_COLORS[name].color}
      variant={CONNECTION_COLORS[name].variant}
      radius="sm"
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {t(`connectionStatus.${name}`)}
    </Badge>
  );
}

/** The patient app's state on the phone (spec §4 "App status"). */
export function AppStatusBadge({ status }: { status: AppStatus }) {
  const { t } = useTranslation('devices');
  return (
    <Badge
      color={APP_COLORS[status].color}
      variant={APP_COLORS[status].variant}
      radius="sm"
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {t(`appStatus.${status}`)}
    </Badge>
  );
}
