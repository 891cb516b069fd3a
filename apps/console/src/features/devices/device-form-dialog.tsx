import type { SubmitEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DATA_SOURCES,
  DEVICE_MODELS,
  deviceInputSchema,
  isValidImei,
  normalizeMac,
  type DataSource,
  type DeviceDetail,
  type DeviceModel,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { formatDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { createDevice, refreshDevices, updateDevice } from './devices-api';

interface DeviceValues {
  model: DeviceModel | null;
  serialNumber: string;
  macAddress: string;
  imei: string;
  dataSource: DataSource;
}

/** Which form field each refusal of the server belongs to. */
const FIELD_OF_CODE = {
  'device.invalidMac': 'macAddress',
  'device.invalidImei': 'imei',
  'device.unsupportedType': 'model',
  'device.exists': 'serialNumber',
} as const;

function DeviceForm({ device, onClose }: { device: DeviceDetail | null; onClose: () => void }) {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const isActivated = device?.activatedAt != null;
  const form = useFormState<DeviceValues>({
    model: device?.model ?? null,
    serialNumber: device?.serialNumber ?? '',
    macAddress: device?.macAddress ?? '',
    imei: device?.imei ?? '',
    dataSource: device?.dataSource ?? 'WIRELESS_DEVICE',
  });
  const mutation = useMutation({
    mutationFn: (input: Parameters<typeof createDevice>[0]) =>
      device === null ? createDevice(input) : updateDevice(device.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t(device === null ? 'form.created' : 'form.saved'));
      refreshDevices(queryClient);
      onClose();
    },
    onError: (error) => {
      if (form.showServerErrors(error)) return;
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isActivated || mutation.isPending) return;
    const { values } = form;
    const parsed = form.validate(deviceInputSchema, {
      model: values.model ?? undefined,
      serialNumber: values.serialNumber,
      macAddress: values.macAddress.trim() === '' ? null : values.macAddress,
      imei: values.imei.trim() === '' ? null : values.imei,
      dataSource: values.dataSource,
    });
    if (parsed === null) return;
    // The same identifier checks as the server's, with their own messages.
    if (parsed.macAddress && normalizeMac(parsed.macAddress) === null) {
      form.setMessage('macAddress', { key: 'devices:form.invalidMac' });
      return;
    }
    if (parsed.imei && !isValidImei(parsed.imei)) {
      form.setMessage('imei', { key: 'devices:form.invalidImei' });
      return;
    }
    if (!parsed.macAddress && !parsed.imei) {
      form.setMessage('macAddress', { key: 'devices:form.identifierRequired' });
      return;
    }
    mutation.mutate(parsed);
  };

  return (
    <form
      ref={form.formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label={
        device === null ? t('form.createTitle') : t('form.editTitle', { serial: device.serialNumber })
      }
    >
      <Stack gap="md">
        {isActivated ? (
          <Alert color="yellow" variant="light" role="status" data-testid="device-activated-notice">
            {t('form.activatedNotice', { date: formatDate(device.activatedAt ?? '') })}
          </Alert>
        ) : null}
        {mutation.isError && isFormLevelError(mutation.error, FIELD_OF_CODE) ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Select
          label={t('fields.model')}
          data={DEVICE_MODELS.map((model) => ({ value: model, label: t(`model.${model}`) }))}
          value={form.values.model}
          onChange={(value) => {
            form.setField('model', DEVICE_MODELS.find((model) => model === value) ?? null);
          }}
          error={form.errorOf('model')}
          disabled={isActivated}
          allowDeselect={false}
          withAsterisk
          data-autofocus
        />
        <TextInput
          label={t('fields.serialNumber')}
          value={form.values.serialNumber}
          onChange={(event) => {
            form.setField('serialNumber', event.currentTarget.value);
          }}
          error={form.errorOf('serialNumber')}
          disabled={isActivated}
          maxLength={64}
          withAsterisk
        />
        <Text fz="xs" c="dimmed">
          {t('form.identifierHint')}
        </Text>
        <TextInput
          label={t('fields.macAddress')}
          description={t('form.macHint')}
          placeholder="AA:BB:CC:DD:EE:FF"
          value={form.values.macAddress}
          onChange={(event) => {
            form.setField('macAddress', event.currentTarget.value);
          }}
          error={form.errorOf('macAddress')}
          disabled={isActivated}
          maxLength={32}
          ff="monospace"
        />
        <TextInput
          label={t('fields.imei')}
          description={t('form.imeiHint')}
          inputMode="numeric"
          value={form.values.imei}
          onChange={(event) => {
            form.setField('imei', event.currentTarget.value);
          }}
          error={form.errorOf('imei')}
          disabled={isActivated}
          maxLength={32}
        />
        <Select
          label={t('fields.dataSource')}
          data={DATA_SOURCES.map((source) => ({ value: source, label: t(`dataSource.${source}`) }))}
          value={form.values.dataSource}
          onChange={(value) => {
            form.setField('dataSource', DATA_SOURCES.find((source) => source === value) ?? 'WIRELESS_DEVICE');
          }}
          disabled={isActivated}
          allowDeselect={false}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={mutation.isPending} disabled={isActivated}>
            {device === null ? t('form.create') : t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create (device null) or edit a device; an activated device is shown read-only with the reason. */
export function DeviceFormDialog({
  opened,
  device,
  onClose,
}: {
  opened: boolean;
  device: DeviceDetail | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('devices');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={device === null ? t('form.createTitle') : t('form.editTitle', { serial: device.serialNumber })}
      size="md"
    >
      {opened ? <DeviceForm device={device} onClose={onClose} /> : null}
    </Modal>
  );
}
