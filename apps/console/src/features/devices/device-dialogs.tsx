import { useState } from 'react';
import { Alert, Button, Group, Modal, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { SearchIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { bindDevice, deleteDevice, patientSearchQuery, refreshDevices, unbindDevice } from './devices-api';

function MutationError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" role="alert" data-testid="device-dialog-error">
      {messageText(errorMessageFor(error))}
    </Alert>
  );
}

/** Delete with confirmation; only a device that never connected and is bound to nobody. */
export function DeleteDeviceDialog({
  device,
  onClose,
}: {
  device: DeviceSummary | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => deleteDevice(id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('delete.done'));
      refreshDevices(queryClient);
      onClose();
    },
  });
  const isAllowed = device !== null && device.activatedAt === null && device.patient === null;
  return (
    <Modal opened={device !== null} onClose={onClose} title={t('delete.title')}>
      {device === null ? null : (
        <Stack gap="md">
          <Text>{t('delete.confirm', { serial: device.serialNumber, model: device.model })}</Text>
          {isAllowed ? null : (
            <Alert color="yellow" variant="light" role="status">
              {t('delete.notAllowed')}
            </Alert>
          )}
          {mutation.isError ? <MutationError error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('delete.cancel')}
            </Button>
            <Button
              color="red"
              loading={mutation.isPending}
              disabled={!isAllowed}
              onClick={() => {
                mutation.mutate(device.id);
              }}
            >
              {t('delete.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Unbind a device from its patient, after confirmation. */
export function UnbindDeviceDialog({
  device,
  onClose,
}: {
  device: DeviceSummary | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => unbindDevice(id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('unbind.done'));
      refreshDevices(queryClient);
      onClose();
    },
  });
  return (
    <Modal opened={device !== null} onClose={onClose} title={t('unbind.title')}>
      {device === null ? null : (
        <Stack gap="md">
          <Text>
            {t('unbind.confirm', {
              serial: device.serialNumber,
              name: device.patient?.fullName ?? device.accountUsername ?? '',
            })}
          </Text>
          {mutation.isError ? <MutationError error={mutation.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t('unbind.cancel')}
            </Button>
            <Button
              color="orange"
              loading={mutation.isPending}
              onClick={() => {
                mutation.mutate(device.id);
              }}
            >
              {t('unbind.submit')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function BindForm({ device, onClose }: { device: DeviceSummary; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<{ id: string; fullName: string } | null>(null);
  const patients = useQuery(patientSearchQuery(debounced));
  const mutation = useMutation({
    mutationFn: (patientId: string) => bindDevice(device.id, patientId),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('bind.done', { name: saved.patient?.fullName ?? '' }));
      refreshDevices(queryClient);
      onClose();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen !== null && !mutation.isPending) mutation.mutate(chosen.id);
      }}
      aria-label={t('bind.title', { serial: device.serialNumber })}
    >
      <Stack gap="md">
        <TextInput
          label={t('bind.search')}
          placeholder={t('bind.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
          }}
          data-autofocus
        />
        {patients.isPending ? <LoadingState /> : null}
        {patients.isError ? (
          <ErrorState
            error={patients.error}
            title={t('bind.noPatients')}
            onRetry={() => void patients.refetch()}
          />
        ) : null}
        {patients.isSuccess && patients.data.items.length === 0 ? (
          <EmptyList title={t('bind.noPatients')} />
        ) : null}
        {patients.isSuccess && patients.data.items.length > 0 ? (
          <Radio.Group
            name="patient"
            label={t('bind.choose')}
            value={chosen?.id ?? null}
            onChange={(value) => {
              const patient = patients.data.items.find((item) => item.id === value);
              setChosen(patient === undefined ? null : { id: patient.id, fullName: patient.fullName });
            }}
          >
            <Table verticalSpacing={6} mt="xs" aria-label={t('bind.choose')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('bind.patientColumn')}</Table.Th>
                  <Table.Th>{t('bind.codeColumn')}</Table.Th>
                  <Table.Th>{t('bind.contactColumn')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {patients.data.items.map((patient) => (
                  <Table.Tr key={patient.id}>
                    <Table.Td>
                      <Radio value={patient.id} label={patient.fullName} />
                    </Table.Td>
                    <Table.Td>{patient.patientCode}</Table.Td>
                    <Table.Td>{patient.phone ?? patient.email ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Radio.Group>
        ) : null}
        {chosen === null ? null : <Text fz="sm">{t('bind.selected', { name: chosen.fullName })}</Text>}
        {mutation.isError ? <MutationError error={mutation.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('bind.cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending} disabled={chosen === null}>
            {t('bind.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Bind a device to a patient found with the patients search. */
export function BindDeviceDialog({ device, onClose }: { device: DeviceSummary | null; onClose: () => void }) {
  const { t } = useTranslation('devices');
  return (
    <Modal
      opened={device !== null}
      onClose={onClose}
      title={device === null ? '' : t('bind.title', { serial: device.serialNumber })}
      size="lg"
    >
      {device === null ? null : <BindForm device={device} onClose={onClose} />}
    </Modal>
  );
}
