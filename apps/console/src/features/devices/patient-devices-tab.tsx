import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { SearchIcon } from '../shell/icons';
import { Can, usePermissions } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { AppStatusBadge, ConnectionBadge } from './device-status';
import { bindDevice, deviceListQuery, patientDevicesQuery, refreshDevices } from './devices-api';

/** Picks an unbound device (searched by IMEI, MAC or serial) and binds it to the patient. */
function BindToPatient({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<string | null>(null);
  const stock = useQuery(
    deviceListQuery({
      page: 0,
      size: 10,
      search: debounced,
      sortField: 'created',
      sortType: 'desc',
      category: null,
      status: null,
      appStatus: null,
      bound: 'false',
    }),
  );
  const mutation = useMutation({
    mutationFn: (deviceId: string) => bindDevice(deviceId, patientId),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('patientTab.done'));
      refreshDevices(queryClient);
      onClose();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen !== null && !mutation.isPending) mutation.mutate(chosen);
      }}
      aria-label={t('patientTab.bindAnother')}
    >
      <Stack gap="md">
        <TextInput
          label={t('patientTab.searchDevices')}
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
          }}
          data-autofocus
        />
        {stock.isPending ? <LoadingState /> : null}
        {stock.isError ? (
          <ErrorState error={stock.error} title={t('list.loadFailed')} onRetry={() => void stock.refetch()} />
        ) : null}
        {stock.isSuccess && stock.data.items.length === 0 ? (
          <EmptyList title={t('patientTab.noDevices')} />
        ) : null}
        {stock.isSuccess && stock.data.items.length > 0 ? (
          <Radio.Group name="device" label={t('patientTab.chooseDevice')} value={chosen} onChange={setChosen}>
            <Stack gap={6} mt="xs">
              {stock.data.items.map((device) => (
                <Radio
                  key={device.id}
                  value={device.id}
                  label={`${device.model} · ${device.serialNumber} · ${device.macAddress ?? device.imei ?? ''}`}
                />
              ))}
            </Stack>
          </Radio.Group>
        ) : null}
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('patientTab.cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending} disabled={chosen === null}>
            {t('patientTab.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The devices tab of a patient profile: bound devices, their states and last sync; bind another. */
export function PatientDevicesTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('devices');
  const permissions = usePermissions();
  const devices = useQuery(patientDevicesQuery(patientId));
  const [isBinding, setBinding] = useState(false);
  const canOpenDevices = permissions.can('device.view');
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} fz="lg">
          {t('patientTab.title')}
        </Title>
        <Can permission="device.update">
          <Button
            variant="light"
            onClick={() => {
              setBinding(true);
            }}
          >
            {t('patientTab.bindAnother')}
          </Button>
        </Can>
      </Group>
      <Paper withBorder radius="md" p="md">
        {devices.isPending ? <LoadingState /> : null}
        {devices.isError ? (
          <ErrorState
            error={devices.error}
            title={t('patientTab.loadFailed')}
            onRetry={() => void devices.refetch()}
          />
        ) : null}
        {devices.isSuccess && devices.data.length === 0 ? <EmptyList title={t('patientTab.empty')} /> : null}
        {devices.isSuccess && devices.data.length > 0 ? (
          <Table
            verticalSpacing="sm"
            aria-label={t('patientTab.caption')}
            data-testid="patient-devices-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('fields.serialNumber')}</Table.Th>
                <Table.Th>{t('fields.model')}</Table.Th>
                <Table.Th>{t('fields.macAddress')}</Table.Th>
                <Table.Th>{t('fields.connectionStatus')}</Table.Th>
                <Table.Th>{t('fields.appStatus')}</Table.Th>
                <Table.Th>{t('fields.lastSyncedAt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {devices.data.map((device) => (
                <Table.Tr key={device.id}>
                  <Table.Td>
                    {canOpenDevices ? (
                      <Anchor component={Link} to={`../../devices/${device.id}`} relative="path" fw={600}>
                        {device.serialNumber}
                      </Anchor>
                    ) : (
                      device.serialNumber
                    )}
                  </Table.Td>
                  <Table.Td>{device.model}</Table.Td>
                  <Table.Td ff="monospace">{device.macAddress ?? device.imei ?? ''}</Table.Td>
                  <Table.Td>
                    <ConnectionBadge status={device.connectionStatus} />
                  </Table.Td>
                  <Table.Td>
                    <AppStatusBadge status={device.appStatus} />
                  </Table.Td>
                  <Table.Td>
                    {device.lastSyncedAt === null ? (
                      <Text c="dimmed" fz="sm">
                        {t('list.never')}
                      </Text>
                    ) : (
                      formatDateTime(device.lastSyncedAt)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Paper>
      <Modal
        opened={isBinding}
        onClose={() => {
          setBinding(false);
        }}
        title={t('patientTab.bindAnother')}
        size="lg"
      >
        {isBinding ? (
          <BindToPatient
            patientId={patientId}
            onClose={() => {
              setBinding(false);
            }}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
