import { Badge } from '@mantine/core';
import { CONNECTION_STATUS_NAMES, type AppStatus, type ConnectionStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const CONNECTION_COLORS = {
  CONNECTED: 'teal',
  DISCONNECTED: 'orange',
  NOT_ACTIVATED: 'gray',
  UNKNOWN: 'grape',
} as const;
const APP_COLORS: Record<AppStatus, string> = {
  ONLINE: 'teal',
  OFFLINE: 'gray',
  KILLED: 'red',
  NO_SYNC: 'yellow',
};

/** The connection status (spec §3 codes 1, 0, -1, 2) as a coloured badge. */
export function ConnectionBadge({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation('devices');
  const name = CONNECTION_STATUS_NAMES[status];
  return (
    <Badge
      color={CONNECTION_COLORS[name]}
      variant="light"
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
      color={APP_COLORS[status]}
      variant="dot"
      radius="sm"
      styles={{ label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {t(`appStatus.${status}`)}
    </Badge>
  );
}
