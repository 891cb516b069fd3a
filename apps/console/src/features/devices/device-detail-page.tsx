import { useState } from 'react';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DeviceDetail } from '@rpm/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { BindDeviceDialog, UnbindDeviceDialog } from './device-dialogs';
import { DeviceFormDialog } from './device-form-dialog';
import { ConnectionHistoryTable, PhoneHistoryTable } from './device-histories';
import { AppStatusBadge, ConnectionBadge } from './device-status';
import { deviceDetailQuery } from './devices-api';

function InfoTile({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text component="div" fz="sm" fw={500}>
        {value}
      </Text>
    </Stack>
  );
}

function DeviceInformation({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const when = (value: string | null) => (value === null ? t('list.never') : formatDateTime(value));
  return (
    <Paper withBorder radius="md" p="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <InfoTile label={t('fields.model')} value={device.model} />
        <InfoTile label={t('fields.serialNumber')} value={device.serialNumber} />
        <InfoTile label={t('fields.macAddress')} value={device.macAddress ?? '—'} />
        <InfoTile label={t('fields.imei')} value={device.imei ?? '—'} />
        <InfoTile
          label={t('fields.patient')}
          value={
            device.patient === null ? (
              t('list.unbound')
            ) : (
              <Anchor component={Link} to={`../../patients/${device.patient.id}`} relative="path">
                {device.patient.fullName} ({device.patient.patientCode})
              </Anchor>
            )
          }
        />
        <InfoTile label={t('fields.account')} value={device.accountUsername ?? '—'} />
        <InfoTile
          label={t('fields.connectionStatus')}
          value={<ConnectionBadge status={device.connectionStatus} />}
        />
        <InfoTile label={t('fields.appStatus')} value={<AppStatusBadge status={device.appStatus} />} />
        <InfoTile label={t('fields.firstConnectedAt')} value={when(device.firstConnectedAt)} />
        <InfoTile label={t('fields.lastConnectedAt')} value={when(device.lastConnectedAt)} />
        <InfoTile label={t('fields.lastSyncedAt')} value={when(device.lastSyncedAt)} />
        <InfoTile label={t('fields.dataSource')} value={t(`dataSource.${device.dataSource}`)} />
        <InfoTile label={t('fields.osVersion')} value={device.osVersion || '—'} />
        <InfoTile label={t('fields.firmwareVersion')} value={device.firmwareVersion || '—'} />
        <InfoTile label={t('fields.activatedAt')} value={when(device.activatedAt)} />
        <InfoTile label={t('fields.importedAt')} value={formatDateTime(device.importedAt)} />
      </SimpleGrid>
    </Paper>
  );
}

/** One device: its information, and its connection and phone histories (spec §2). */
export function DeviceDetailPage() {
  const { t } = useTranslation('devices');
  const { deviceId = '' } = useParams();
  const device = useQuery(deviceDetailQuery(deviceId));
  usePageTitle(device.data ? t('detail.title', { serial: device.data.serialNumber }) : t('title'));
  const [dialog, setDialog] = useState<'edit' | 'bind' | 'unbind' | null>(null);
  const close = () => {
    setDialog(null);
  };
  return (
    <Stack gap="lg" maw={1380}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        ← {t('detail.back')}
      </Anchor>
      {device.isPending ? <LoadingState /> : null}
      {device.isError ? (
        <ErrorState
          error={device.error}
          title={t('detail.loadFailed')}
          onRetry={() => void device.refetch()}
        />
      ) : null}
      {device.isSuccess ? (
        <>
          <Group justify="space-between" align="flex-end">
            <Title order={1} fz={26}>
              {t('detail.title', { serial: device.data.serialNumber })}
            </Title>
            <Can permission="device.update">
              <Group gap="sm">
                <Button
                  variant="default"
                  onClick={() => {
                    setDialog('edit');
                  }}
                >
                  {t('actions.edit')}
                </Button>
                {device.data.patient === null ? (
                  <Button
                    onClick={() => {
                      setDialog('bind');
                    }}
                  >
                    {t('actions.bind')}
                  </Button>
                ) : (
                  <Button
                    color="orange"
                    variant="light"
                    onClick={() => {
                      setDialog('unbind');
                    }}
                  >
                    {t('actions.unbind')}
                  </Button>
                )}
              </Group>
            </Can>
          </Group>
          <DeviceInformation device={device.data} />
          <Tabs defaultValue="connections" variant="outline" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="connections">{t('detail.connectionHistory')}</Tabs.Tab>
              <Tabs.Tab value="phones">{t('detail.phoneHistory')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="connections" pt="lg">
              <ConnectionHistoryTable target={{ deviceId: device.data.id }} />
            </Tabs.Panel>
            <Tabs.Panel value="phones" pt="lg">
              {device.data.accountUsername === null ? (
                <Text c="dimmed">{t('detail.notBound')}</Text>
              ) : (
                <PhoneHistoryTable username={device.data.accountUsername} />
              )}
            </Tabs.Panel>
          </Tabs>
          <DeviceFormDialog opened={dialog === 'edit'} device={device.data} onClose={close} />
          <BindDeviceDialog device={dialog === 'bind' ? device.data : null} onClose={close} />
          <UnbindDeviceDialog device={dialog === 'unbind' ? device.data : null} onClose={close} />
        </>
      ) : null}
    </Stack>
  );
}
