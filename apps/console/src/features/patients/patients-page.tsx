import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PATIENT_STATUSES, type PatientSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, toDisplayDate } from '../../lib/format';
import { SubUserBadge } from '../contacts/patient-sub-users';
import { doctorListQuery } from '../doctors/doctors-api';
import { downloadFile } from '../imports/imports-api';
import { useOrgReach } from '../levels/use-org-reach';
import { PlusIcon, UploadIcon } from '../shell/icons';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ExportButton } from '../shell/data-table-export';
import { ListSearchField, RecordFilter, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { Can, usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { areaPath } from '../shell/navigation';
import { useSession } from '../shell/session-context';
import { AttentionCell, CrossedCell, LastReadingCell, OpenWorkCell, ScopeControl } from './patient-triage';
import {
  defaultScopeOf,
  isClinicalRole,
  patientExportPath,
  patientListQuery,
  type PatientFilter,
} from './patients-api';

/**
 * Patient management (spec §2): search (name, patient id, phone, email), "My patients" (care team)
 * or "My center", filters (status, center, doctor, package), sortable columns and pages; export to
 * xlsx, import and create for those allowed. The triage columns (status and what needs attention,
 * what crossed, last reading and its age, open case or ticket) come with every row; doctors,
 * assistants and operators start sorted by severity. The server limits the list to the caller's
 * health centers.
 */
export function PatientsPage() {
  const { t } = useTranslation('patients');
  usePageTitle(t('list.title'));
  const { centers } = useOrgReach();
  const session = useSession();
  const role = session.user.role;
  const area = areaPath(session.area);
  const permissions = usePermissions();
  const doctors = useQuery({
    ...doctorListQuery({
      page: 0,
      size: 200,
      search: '',
      sortField: 'name',
      sortType: 'asc',
      specialty: null,
      centerId: null,
      kind: null,
      licenseState: null,
    }),
    enabled: permissions.can('user.view'),
  });
  const paged = usePagedList<PatientFilter['sortField'], Omit<PatientFilter, 'search'>>({
    page: 0,
    size: 20,
    scope: defaultScopeOf(role),
    sortField: isClinicalRole(role) ? 'severity' : 'created',
    sortType: 'desc',
    status: null,
    centerId: null,
    doctorId: null,
    packageCode: '',
  });
  const { filter, update, debouncedSearch } = paged;
  const patients = useQuery(patientListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered =
    filter.scope === 'mine' ||
    debouncedSearch !== '' ||
    filter.status !== null ||
    filter.centerId !== null ||
    filter.doctorId !== null ||
    filter.packageCode !== '';

  // The export is the server's (same filter and order): its columns are the patient import
  // template's so an exported file imports back unchanged, hence no column here declares `export`.
  const columns: Column<PatientSummary, PatientFilter['sortField']>[] = [
    {
      id: 'code',
      header: t('list.columns.code'),
      sortField: 'code',
      cell: (row) => (
        <Text fz="sm" ff="monospace">
          {row.patientCode}
        </Text>
      ),
    },
    {
      id: 'name',
      header: t('list.columns.name'),
      sortField: 'name',
      cell: (row) => (
        <>
          <Anchor component={Link} to={row.id} fw={600} aria-label={t('list.open', { name: row.fullName })}>
            {row.fullName}
          </Anchor>
          {row.accountKind === 'SUB_USER' ? (
            // A sub-user has no login or email of its own: say whose account holds it.
            <Group gap={4}>
              <SubUserBadge />
              <Text fz="xs" c="dimmed">
                {row.holder?.name ?? ''}
              </Text>
            </Group>
          ) : (
            <Text fz="xs" c="dimmed">
              {row.email ?? ''}
            </Text>
          )}
        </>
      ),
    },
    {
      id: 'birthday',
      header: t('list.columns.birthday'),
      sortField: 'birthday',
      cell: (row) => toDisplayDate(row.birthday),
    },
    { id: 'phone', header: t('list.columns.phone'), cell: (row) => row.phone ?? '' },
    { id: 'center', header: t('list.columns.center'), cell: (row) => row.healthCenter?.name ?? '' },
    {
      id: 'status',
      header: t('list.columns.status'),
      sortField: 'severity',
      cell: (row) => <AttentionCell row={row} />,
    },
    { id: 'crossed', header: t('triage.columns.crossed'), cell: (row) => <CrossedCell row={row} /> },
    {
      id: 'lastReading',
      header: t('triage.columns.lastReading'),
      cell: (row) => <LastReadingCell row={row} />,
    },
    {
      id: 'work',
      header: t('triage.columns.work'),
      cell: (row) => <OpenWorkCell row={row} areaPrefix={area} />,
    },
    {
      id: 'created',
      header: t('list.columns.created'),
      sortField: 'created',
      cell: (row) => formatDate(row.createdAt),
    },
  ];

  return (
    <Stack gap="lg" maw={1380}>
      <Group justify="space-between" align="flex-end">
        <Title order={1} fz={26}>
          {t('list.title')}
        </Title>
        <Group gap="sm">
          <ExportButton
            label={t('list.export')}
            download={() =>
              downloadFile(patientExportPath({ ...filter, search: debouncedSearch }), 'patients.xlsx')
            }
            failureMessageKey="patients:list.exportFailed"
          />
          <Can permission="user.import">
            <Button
              component={Link}
              to="../imports?kind=PATIENT"
              relative="path"
              variant="default"
              leftSection={<UploadIcon />}
            >
              {t('list.import')}
            </Button>
          </Can>
          <Can permission="user.create">
            <Button component={Link} to="new" leftSection={<PlusIcon />}>
              {t('list.new')}
            </Button>
          </Can>
        </Group>
      </Group>
      <Group gap="sm" align="flex-end">
        <ScopeControl
          value={filter.scope}
          onChange={(scope) => {
            update({ scope });
          }}
        />
        <ListSearchField
          list={paged}
          label={t('list.searchLabel')}
          placeholder={t('list.searchPlaceholder')}
          width={280}
        />
        <ValueFilter
          values={PATIENT_STATUSES}
          labelOf={(status) => t(`status.${status}`)}
          value={filter.status}
          onChange={(status) => {
            update({ status });
          }}
          label={t('list.statusFilter')}
          placeholder={t('list.allStatuses')}
          width={150}
        />
        <RecordFilter
          items={centers}
          nameOf={(center) => center.name}
          value={filter.centerId}
          onChange={(centerId) => {
            update({ centerId });
          }}
          label={t('list.centerFilter')}
          placeholder={t('list.allCenters')}
          width={210}
        />
        <RecordFilter
          items={doctors.data?.items ?? []}
          nameOf={(doctor) => doctor.fullName}
          value={filter.doctorId}
          onChange={(doctorId) => {
            update({ doctorId });
          }}
          label={t('list.doctorFilter')}
          placeholder={t('list.allDoctors')}
          width={190}
        />
        <TextInput
          label={t('list.packageFilter')}
          value={filter.packageCode}
          onChange={(event) => {
            update({ packageCode: event.currentTarget.value });
          }}
          w={130}
        />
      </Group>
      <DataTable
        columns={columns}
        query={patients}
        list={paged}
        label={t('list.title')}
        testId="patients-table"
        rowTestId="patient-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('list.loadError'),
          emptyTitle: t('list.empty'),
          noMatchTitle: t('list.empty'),
          noMatchHint: t('list.emptyHint'),
        }}
      />
    </Stack>
  );
}
