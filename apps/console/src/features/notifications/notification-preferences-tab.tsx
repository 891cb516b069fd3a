import { Alert, Badge, Button, Group, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  type NotificationChannel,
  type NotificationPreference,
  type NotificationType,
} from '@rpm/contracts';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { ErrorState, LoadingState } from '../shell/query-states';
import { preferencesQuery, savePreferences } from './preferences-api';

const LOCKED_ON_STYLES = {
  track: {
    backgroundColor: 'var(--mantine-primary-color-filled)',
    borderColor: 'var(--mantine-primary-color-filled)',
    opacity: 0.5,
  },
};

const cellKey = (type: NotificationType, channel: NotificationChannel) => `${type}:${channel}`;

function PreferencesForm({ items }: { items: readonly NotificationPreference[] }) {
  const { t } = useTranslation('notifications');
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(
    () => new Map(items.map((item) => [cellKey(item.type, item.channel), item.enabled])),
  );
  const byCell = new Map(items.map((item) => [cellKey(item.type, item.channel), item]));
  const types = NOTIFICATION_TYPES.filter((type) => items.some((item) => item.type === type));
  const channels = NOTIFICATION_CHANNELS.filter((channel) => items.some((item) => item.channel === channel));

  const save = useMutation({
    // Only what may change is sent; ALERT is always on.
    mutationFn: () =>
      savePreferences({
        items: items
          .filter((item) => item.changeable)
          .map((item) => ({
            type: item.type,
            channel: item.channel,
            enabled: enabled.get(cellKey(item.type, item.channel)) ?? item.enabled,
          })),
      }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      queryClient.setQueryData(preferencesQuery().queryKey, saved);
      notifySuccess(t('preferences.saved'));
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!save.isPending) save.mutate();
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="notification-preferences-title">
      <Paper withBorder radius="md" p="lg" maw={760}>
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} fz="lg" id="notification-preferences-title">
              {t('preferences.title')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('preferences.description')}
            </Text>
          </Stack>
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="notification-preferences">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('preferences.type')}</Table.Th>
                  {channels.map((channel) => (
                    <Table.Th key={channel} scope="col" ta="center">
                      {t(`channels.${channel}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {types.map((type) => {
                  const isChangeable = channels.every(
                    (channel) => byCell.get(cellKey(type, channel))?.changeable !== false,
                  );
                  return (
                    <Table.Tr key={type} data-testid={`preference-row-${type}`}>
                      <Table.Th scope="row" fw={500}>
                        <Group gap="xs">
                          {t(`types.${type}`)}
                          {isChangeable ? null : (
                            <Badge variant="light" color="gray" size="sm">
                              {t('preferences.alwaysOn')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Th>
                      {channels.map((channel) => {
                        const item = byCell.get(cellKey(type, channel));
                        const key = cellKey(type, channel);
                        return (
                          <Table.Td key={channel}>
                            {item === undefined ? null : (
                              <Switch
                                mx="auto"
                                w="fit-content"
                                aria-label={t('preferences.switchLabel', {
                                  type: t(`types.${type}`),
                                  channel: t(`channels.${channel}`),
                                })}
                                checked={item.changeable ? (enabled.get(key) ?? item.enabled) : item.enabled}
                                disabled={!item.changeable}
                                // Locked on: the track keeps the colour of "on", faded.
                                styles={item.changeable ? undefined : LOCKED_ON_STYLES}
                                onChange={(event) => {
                                  const isOn = event.currentTarget.checked;
                                  setEnabled((current) => new Map(current).set(key, isOn));
                                }}
                              />
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('preferences.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** Account settings' Notifications tab: which channels each type of notification reaches the user by. */
export function NotificationPreferencesTab() {
  const { t } = useTranslation('notifications');
  const preferences = useQuery(preferencesQuery());
  if (preferences.isPending) return <LoadingState />;
  if (preferences.isError)
    return (
      <ErrorState
        error={preferences.error}
        title={t('loadError')}
        onRetry={() => {
          void preferences.refetch();
        }}
      />
    );
  return <PreferencesForm items={preferences.data.items} />;
}
