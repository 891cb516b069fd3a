import { Anchor, Group, Rating, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  DOCTOR_KINDS,
  LICENSE_STATES,
  SPECIALTY_CODES,
  type DegreeCode,
  type DoctorKind,
  type LicenseState,
  type SpecialtyCode,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../lib/format';
import { useOrgReach } from '../levels/use-org-reach';
import { SearchIcon } from '../shell/icons';
import { PagedTableFrame, SortHeader, usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { LicenseBadge, SpecialtyChips } from './doctor-badges';
import { doctorListQuery, type DoctorFilter, type DoctorSortField } from './doctors-api';

const PAGE_SIZE = 10;

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
    size: PAGE_SIZE,
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
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          leftSection={<SearchIcon />}
          value={paged.search}
          onChange={(event) => {
            paged.setSearch(event.currentTarget.value);
          }}
          w={280}
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
        <Select
          label={t('list.centerFilter')}
          placeholder={t('list.any')}
          data={centers.map((center) => ({ value: center.id, label: center.name }))}
          value={filter.centerId}
          onChange={(value) => {
            update({ centerId: value });
          }}
          searchable
          clearable
          nothingFoundMessage={t('list.noOption')}
          w={220}
        />
        <Select
          label={t('list.kindFilter')}
          placeholder={t('list.any')}
          data={DOCTOR_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))}
          value={filter.kind}
          onChange={(value) => {
            update({ kind: DOCTOR_KINDS.find((kind: DoctorKind) => kind === value) ?? null });
          }}
          clearable
          w={170}
        />
        <Select
          label={t('list.licenseFilter')}
          placeholder={t('list.any')}
          data={LICENSE_STATES.map((state) => ({ value: state, label: t(`licenseState.${state}`) }))}
          value={filter.licenseState}
          onChange={(value) => {
            update({ licenseState: LICENSE_STATES.find((state: LicenseState) => state === value) ?? null });
          }}
          clearable
          w={170}
        />
      </Group>
      <PagedTableFrame
        query={doctors}
        page={filter.page}
        size={PAGE_SIZE}
        onPage={paged.setPage}
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('list.loadFailed'),
          emptyTitle: t('list.emptyTitle'),
          emptyHint: t('list.emptyHint'),
          noMatchTitle: t('list.noMatchTitle'),
          noMatchHint: t('list.noMatchHint'),
        }}
      >
        {(items, isStale) => (
          <Table
            highlightOnHover
            verticalSpacing="sm"
            aria-label={t('list.title')}
            data-testid="doctors-table"
          >
            <Table.Thead>
              <Table.Tr>
                <SortHeader field="name" sort={filter} onSort={paged.sortBy}>
                  {t('list.name')}
                </SortHeader>
                <Table.Th>{t('list.specialties')}</Table.Th>
                <Table.Th>{t('list.center')}</Table.Th>
                <SortHeader field="experience" sort={filter} onSort={paged.sortBy}>
                  {t('list.experience')}
                </SortHeader>
                <SortHeader field="rating" sort={filter} onSort={paged.sortBy}>
                  {t('list.rating')}
                </SortHeader>
                <Table.Th>{t('list.license')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
              {items.map((doctor) => (
                <Table.Tr key={doctor.id}>
                  <Table.Td>
                    <Anchor component={Link} to={doctor.id} fw={600}>
                      {doctor.fullName}
                    </Anchor>
                    <Text fz="xs" c="dimmed">
                      {t(`kind.${doctor.kind}`)}
                      {doctor.degreeCode === null
                        ? ''
                        : ` · ${t(`degree.${doctor.degreeCode as DegreeCode}`)}`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <SpecialtyChips specialties={doctor.specialties} max={3} />
                  </Table.Td>
                  <Table.Td>{doctor.center?.name ?? <Text c="dimmed">—</Text>}</Table.Td>
                  <Table.Td>
                    {doctor.yearsOfExperience === null
                      ? '—'
                      : t('list.years', { count: doctor.yearsOfExperience })}
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>
                    <LicenseBadge state={doctor.licenseState} isShort />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedTableFrame>
    </Stack>
  );
}
