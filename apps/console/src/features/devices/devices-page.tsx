import { useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Menu,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
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
import { notifyError } from '../../lib/notify';
import { downloadFile } from '../imports/imports-api';
import { DotsIcon, PlusIcon, SearchIcon, UploadIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
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
  const [isExporting, setExporting] = useState(false);
  const isFiltered =
    debouncedSearch !== '' ||
    filter.category !== null ||
    filter.status !== null ||
    filter.appStatus !== null ||
    filter.bound !== null;
  const close = () => {
    setDialog(null);
  };
  const exportList = () => {
    setExporting(true);
    downloadFile(deviceExportPath({ ...filter, search: debouncedSearch }), 'devices.xlsx')
      .catch((error: unknown) => {
        notifyError(error, 'devices:list.exportFailed');
      })
      .finally(() => {
        setExporting(false);
      });
  };

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
          <Button variant="default" onClick={exportList} loading={isExporting}>
            {t('list.export')}
          </Button>
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
        <TextInput
          label={t('list.searchLabel')}
          placeholder={t('list.search')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={250}
        />
        <Select
          label={t('list.category')}
          placeholder={t('list.allCategories')}
          data={DEVICE_MODELS.map((model) => ({ value: model, label: t(`model.${model}`) }))}
          value={filter.category}
          onChange={(value) => {
            update({ category: DEVICE_MODELS.find((model) => model === value) ?? null });
          }}
          clearable
          w={150}
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
        <Select
          label={t('list.appStatus')}
          placeholder={t('list.allAppStatuses')}
          data={APP_STATUSES.map((status) => ({ value: status, label: t(`appStatus.${status}`) }))}
          value={filter.appStatus}
          onChange={(value) => {
            update({ appStatus: APP_STATUSES.find((status) => status === value) ?? null });
          }}
          clearable
          w={170}
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
      <PagedTableFrame
        query={devices}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.empty'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.empty'),
          noMatchHint: t('list.emptyHint'),
        }}
      >
        {(items, isStale) => (
          <Table.ScrollContainer minWidth={960}>
            <Table highlightOnHover verticalSpacing="sm" aria-label={t('title')} data-testid="devices-table">
              <Table.Thead>
                <Table.Tr>
                  <SortHeader field="serialNumber" sort={filter} onSort={paged.sortBy}>
                    {t('fields.serialNumber')}
                  </SortHeader>
                  <SortHeader field="model" sort={filter} onSort={paged.sortBy}>
                    {t('fields.model')}
                  </SortHeader>
                  <SortHeader field="macAddress" sort={filter} onSort={paged.sortBy}>
                    {t('fields.macAddress')}
                  </SortHeader>
                  <Table.Th>{t('fields.patient')}</Table.Th>
                  <SortHeader field="status" sort={filter} onSort={paged.sortBy}>
                    {t('fields.connectionStatus')}
                  </SortHeader>
                  <Table.Th>{t('fields.appStatus')}</Table.Th>
                  <SortHeader field="lastSync" sort={filter} onSort={paged.sortBy}>
                    {t('fields.lastSyncedAt')}
                  </SortHeader>
                  <Table.Th>
                    <VisuallyHidden>{t('fields.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
                {items.map((device) => (
                  <Table.Tr key={device.id}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={device.id}
                        fw={600}
                        aria-label={t('list.openDevice', { serial: device.serialNumber })}
                      >
                        {device.serialNumber}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{device.model}</Table.Td>
                    <Table.Td>
                      <Text fz="sm" ff="monospace">
                        {device.macAddress ?? ''}
                      </Text>
                      {device.imei === null ? null : (
                        <Text fz="xs" c="dimmed" ff="monospace">
                          {device.imei}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {device.patient === null ? (
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
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <ConnectionBadge status={device.connectionStatus} />
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
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
                    <Table.Td>
                      <RowActions device={device} onOpen={setDialog} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedTableFrame>
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
