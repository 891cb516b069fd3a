import { Anchor, Group, Rating, Select, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  DOCTOR_KINDS,
  LICENSE_STATES,
  SPECIALTY_CODES,
  type DegreeCode,
  type DoctorSummary,
  type SpecialtyCode,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../lib/format';
import { useOrgReach } from '../levels/use-org-reach';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, RecordFilter, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { LicenseBadge, SpecialtyChips } from './doctor-badges';
import { doctorListQuery, type DoctorFilter, type DoctorSortField } from './doctors-api';

/**
 * The doctor list (spec §2): the doctors of the caller's level, searchable by name, email or phone,
 * filtered by specialty, center, kind and license state, sorted and paged by the server.
 */
export function DoctorsPage() {
  const { t } = useTranslation('doctors');
  usePageTitle(t('list.title'));
  const { centers } = useOrgReach();
  const paged = usePagedList<DoctorSortField, Omit<DoctorFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'name',
    sortType: 'asc',
    specialty: null,
    centerId: null,
    kind: null,
    licenseState: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const doctors = useQuery(doctorListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered =
    debouncedSearch !== '' ||
    filter.specialty !== null ||
    filter.centerId !== null ||
    filter.kind !== null ||
    filter.licenseState !== null;
  const columns: Column<DoctorSummary, DoctorSortField>[] = [
    {
      id: 'name',
      header: t('list.name'),
      sortField: 'name',
      cell: (doctor) => (
        <>
          <Anchor component={Link} to={doctor.id} fw={600}>
            {doctor.fullName}
          </Anchor>
          <Text fz="xs" c="dimmed">
            {t(`kind.${doctor.kind}`)}
            {doctor.degreeCode === null ? '' : ` · ${t(`degree.${doctor.degreeCode as DegreeCode}`)}`}
          </Text>
        </>
      ),
    },
    {
      id: 'specialties',
      header: t('list.specialties'),
      cell: (doctor) => <SpecialtyChips specialties={doctor.specialties} max={3} />,
    },
    {
      id: 'center',
      header: t('list.center'),
      cell: (doctor) => doctor.center?.name ?? <Text c="dimmed">—</Text>,
    },
    {
      id: 'experience',
      header: t('list.experience'),
      sortField: 'experience',
      cell: (doctor) =>
        doctor.yearsOfExperience === null ? '—' : t('list.years', { count: doctor.yearsOfExperience }),
    },
    {
      id: 'rating',
      header: t('list.rating'),
      sortField: 'rating',
      cell: (doctor) => (
        <Group gap={6} wrap="nowrap">
          <Rating
            value={doctor.ratingAverage}
            fractions={10}
            readOnly
            size="xs"
            role="img"
            aria-label={t('list.ratingLabel', { value: formatNumber(doctor.ratingAverage, 1) })}
          />
          <Text fz="xs" c="dimmed">
            {formatNumber(doctor.ratingAverage, 1)} ({formatNumber(doctor.ratingCount)})
          </Text>
        </Group>
      ),
    },
    {
      id: 'license',
      header: t('list.license'),
      cell: (doctor) => <LicenseBadge state={doctor.licenseState} isShort />,
    },
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('list.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('list.subtitle')}
        </Text>
      </Stack>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          width={280}
        />
        <Select
          label={t('list.specialtyFilter')}
          placeholder={t('list.any')}
          data={SPECIALTY_CODES.map((code) => ({ value: code, label: t(`specialty.${code}`) })).sort(
            (left, right) => left.label.localeCompare(right.label),
          )}
          value={filter.specialty}
          onChange={(value) => {
            update({ specialty: SPECIALTY_CODES.find((code: SpecialtyCode) => code === value) ?? null });
          }}
          searchable
          clearable
          nothingFoundMessage={t('list.noOption')}
          w={220}
        />
        <RecordFilter
          items={centers}
          nameOf={(center) => center.name}
          value={filter.centerId}
          onChange={(centerId) => {
            update({ centerId });
          }}
          label={t('list.centerFilter')}
          placeholder={t('list.any')}
          width={220}
          nothingFound={t('list.noOption')}
        />
        <ValueFilter
          values={DOCTOR_KINDS}
          labelOf={(kind) => t(`kind.${kind}`)}
          value={filter.kind}
          onChange={(kind) => {
            update({ kind });
          }}
          label={t('list.kindFilter')}
          placeholder={t('list.any')}
          width={170}
        />
        <ValueFilter
          values={LICENSE_STATES}
          labelOf={(state) => t(`licenseState.${state}`)}
          value={filter.licenseState}
          onChange={(licenseState) => {
            update({ licenseState });
          }}
          label={t('list.licenseFilter')}
          placeholder={t('list.any')}
          width={170}
        />
      </Group>
      <DataTable
        columns={columns}
        query={doctors}
        list={paged}
        label={t('list.title')}
        testId="doctors-table"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.emptyTitle'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.noMatchTitle'),
          noMatchHint: t('list.noMatchHint'),
        }}
      />
    </Stack>
  );
}
