import { useState } from 'react';
import { ActionIcon, Anchor, Button, Group, Menu, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  APP_STATUSES,
  CONNECTION_STATUS_NAMES,
  CONNECTION_STATUSES,
  DEVICE_MODELS,
  type DeviceSummary,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { downloadFile } from '../imports/imports-api';
import { DotsIcon, PlusIcon, UploadIcon } from '../shell/icons';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ExportButton } from '../shell/data-table-export';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { Can, usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { BindDeviceDialog, DeleteDeviceDialog, UnbindDeviceDialog } from './device-dialogs';
import { DeviceFormDialog } from './device-form-dialog';
import { AppStatusBadge, ConnectionBadge } from './device-status';
import { deviceExportPath, deviceListQuery, type DeviceFilter, type DeviceSortField } from './devices-api';

const PAGE_SIZE = 15;
type Dialog =
  { kind: 'create' } | { kind: 'edit' | 'delete' | 'bind' | 'unbind'; device: DeviceSummary } | null;

function RowActions({ device, onOpen }: { device: DeviceSummary; onOpen: (dialog: Dialog) => void }) {
  const { t } = useTranslation('devices');
  const permissions = usePermissions();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={t('list.actionsFor', { serial: device.serialNumber })}
        >
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={device.id}>
          {t('actions.history')}
        </Menu.Item>
        {permissions.can('device.update') ? (
          <>
            <Menu.Item
              onClick={() => {
                onOpen({ kind: 'edit', device });
              }}
            >
              {t('actions.edit')}
            </Menu.Item>
            {device.patient === null ? (
              <Menu.Item
                onClick={() => {
                  onOpen({ kind: 'bind', device });
                }}
              >
                {t('actions.bind')}
              </Menu.Item>
            ) : (
              <Menu.Item
                onClick={() => {
                  onOpen({ kind: 'unbind', device });
                }}
              >
                {t('actions.unbind')}
              </Menu.Item>
            )}
          </>
        ) : null}
        {permissions.can('device.delete') ? (
          <Menu.Item
            color="red"
            onClick={() => {
              onOpen({ kind: 'delete', device });
            }}
          >
            {t('actions.delete')}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Device management (spec §2): search by IMEI, MAC, serial or account, filters by category
 * (model), connection and app states and binding, sorting, pages, export, import, and the row
 * actions (edit, bind or unbind, delete, connection history).
 */
export function DevicesPage() {
  const { t } = useTranslation('devices');
  usePageTitle(t('title'));
  const paged = usePagedList<DeviceSortField, Omit<DeviceFilter, 'search'>>({
    page: 0,
    size: PAGE_SIZE,
    sortField: 'created',
    sortType: 'desc',
    category: null,
    status: null,
    appStatus: null,
    bound: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const devices = useQuery(deviceListQuery({ ...filter, search: debouncedSearch }));
  const [dialog, setDialog] = useState<Dialog>(null);
  const isFiltered =
    debouncedSearch !== '' ||
    filter.category !== null ||
    filter.status !== null ||
    filter.appStatus !== null ||
    filter.bound !== null;
  const close = () => {
    setDialog(null);
  };
  // The export is the server's (same filter and order): its columns are the device import
  // template's so an exported file imports back unchanged, hence no column here declares `export`.
  const columns: Column<DeviceSummary, DeviceSortField>[] = [
    {
      id: 'serialNumber',
      header: t('fields.serialNumber'),
      sortField: 'serialNumber',
      cell: (device) => (
        <Anchor
          component={Link}
          to={device.id}
          fw={600}
          aria-label={t('list.openDevice', { serial: device.serialNumber })}
        >
          {device.serialNumber}
        </Anchor>
      ),
    },
    { id: 'model', header: t('fields.model'), sortField: 'model', cell: (device) => device.model },
    {
      id: 'macAddress',
      header: t('fields.macAddress'),
      sortField: 'macAddress',
      cell: (device) => (
        <>
          <Text fz="sm" ff="monospace">
            {device.macAddress ?? ''}
          </Text>
          {device.imei === null ? null : (
            <Text fz="xs" c="dimmed" ff="monospace">
              {device.imei}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'patient',
      header: t('fields.patient'),
      cell: (device) =>
        device.patient === null ? (
          <Text c="dimmed" fz="sm">
            {t('list.unbound')}
          </Text>
        ) : (
          <>
            <Text fz="sm">{device.patient.fullName}</Text>
            <Text fz="xs" c="dimmed">
              {device.accountUsername ?? device.patient.patientCode}
            </Text>
          </>
        ),
    },
    {
      id: 'connectionStatus',
      header: t('fields.connectionStatus'),
      sortField: 'status',
      isNoWrap: true,
      cell: (device) => <ConnectionBadge status={device.connectionStatus} />,
    },
    {
      id: 'appStatus',
      header: t('fields.appStatus'),
      isNoWrap: true,
      cell: (device) => <AppStatusBadge status={device.appStatus} />,
    },
    {
      id: 'lastSyncedAt',
      header: t('fields.lastSyncedAt'),
      sortField: 'lastSync',
      cell: (device) =>
        device.lastSyncedAt === null ? (
          <Text c="dimmed" fz="sm">
            {t('list.never')}
          </Text>
        ) : (
          formatDateTime(device.lastSyncedAt)
        ),
    },
    {
      id: 'actions',
      header: t('fields.actions'),
      isHeaderHidden: true,
      cell: (device) => <RowActions device={device} onOpen={setDialog} />,
    },
  ];

  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('subtitle')}
          </Text>
        </Stack>
        <Group gap="sm">
          <ExportButton
            label={t('list.export')}
            download={() =>
              downloadFile(deviceExportPath({ ...filter, search: debouncedSearch }), 'devices.xlsx')
            }
            failureMessageKey="devices:list.exportFailed"
          />
          <Can permission="device.import">
            <Button
              component={Link}
              to="../imports?kind=DEVICE"
              relative="path"
              variant="default"
              leftSection={<UploadIcon />}
            >
              {t('list.import')}
            </Button>
          </Can>
          <Can permission="device.create">
            <Button
              leftSection={<PlusIcon />}
              onClick={() => {
                setDialog({ kind: 'create' });
              }}
            >
              {t('list.add')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <ListSearchField
          list={paged}
          label={t('list.searchLabel')}
          placeholder={t('list.search')}
          width={250}
        />
        <ValueFilter
          values={DEVICE_MODELS}
          labelOf={(model) => t(`model.${model}`)}
          value={filter.category}
          onChange={(category) => {
            update({ category });
          }}
          label={t('list.category')}
          placeholder={t('list.allCategories')}
          width={150}
        />
        <Select
          label={t('list.status')}
          placeholder={t('list.allStatuses')}
          data={CONNECTION_STATUSES.map((status) => ({
            value: String(status),
            label: t(`connectionStatus.${CONNECTION_STATUS_NAMES[status]}`),
          }))}
          value={filter.status === null ? null : String(filter.status)}
          onChange={(value) => {
            update({ status: CONNECTION_STATUSES.find((status) => String(status) === value) ?? null });
          }}
          clearable
          w={205}
        />
        <ValueFilter
          values={APP_STATUSES}
          labelOf={(status) => t(`appStatus.${status}`)}
          value={filter.appStatus}
          onChange={(appStatus) => {
            update({ appStatus });
          }}
          label={t('list.appStatus')}
          placeholder={t('list.allAppStatuses')}
          width={170}
        />
        <Select
          label={t('list.bound')}
          placeholder={t('list.allBindings')}
          data={[
            { value: 'true', label: t('list.boundOnly') },
            { value: 'false', label: t('list.unboundOnly') },
          ]}
          value={filter.bound}
          onChange={(value) => {
            update({ bound: value === 'true' || value === 'false' ? value : null });
          }}
          clearable
          w={170}
        />
      </Group>
      <DataTable
        columns={columns}
        query={devices}
        list={paged}
        label={t('title')}
        testId="devices-table"
        isFiltered={isFiltered}
        minWidth={960}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.empty'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.empty'),
          noMatchHint: t('list.emptyHint'),
        }}
      />
      <DeviceFormDialog
        opened={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        device={dialog?.kind === 'edit' ? dialog.device : null}
        onClose={close}
      />
      <DeleteDeviceDialog device={dialog?.kind === 'delete' ? dialog.device : null} onClose={close} />
      <BindDeviceDialog device={dialog?.kind === 'bind' ? dialog.device : null} onClose={close} />
      <UnbindDeviceDialog device={dialog?.kind === 'unbind' ? dialog.device : null} onClose={close} />
    </Stack>
  );
}
