import { useState } from 'react';
import { SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { CareRelation, DoctorSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { doctorListQuery } from './doctors-api';

/**
 * The state of a doctor choice in a dialog: the typed search (the server searches, debounced),
 * the chosen doctor with its "required" error, and the relation (specialist or family doctor).
 * The doctors are asked for only while the dialog is open.
 */
export function useDoctorPicker(isOpen: boolean) {
  const { t } = useTranslation('doctors');
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [doctorId, setDoctorId] = useState<string | null>(null);
  const [doctorError, setDoctorError] = useState<string | undefined>(undefined);
  const [relation, setRelation] = useState<CareRelation>('SPECIALIST');
  const doctors = useQuery({
    ...doctorListQuery({
      page: 0,
      size: 20,
      search: debouncedSearch,
      sortField: 'name',
      sortType: 'asc',
      specialty: null,
      centerId: null,
      kind: null,
      licenseState: null,
    }),
    enabled: isOpen,
  });
  return {
    search,
    setSearch,
    doctorId,
    setDoctorId: (id: string | null) => {
      setDoctorId(id);
      setDoctorError(undefined);
    },
    doctorError,
    relation,
    setRelation,
    doctors: doctors.data?.items ?? [],
    isFetching: doctors.isFetching,
    /** The chosen doctor, or null with the "choose a doctor" error shown. */
    requireDoctor: (): string | null => {
      if (doctorId === null) setDoctorError(t('careTeam.doctorRequired'));
      return doctorId;
    },
    reset: () => {
      setSearch('');
      setDoctorId(null);
      setDoctorError(undefined);
      setRelation('SPECIALIST');
    },
  };
}

export type DoctorPicker = ReturnType<typeof useDoctorPicker>;

/** The doctor search-and-choose field and the relation switch of a care team or care request dialog. */
export function DoctorPickerFields({
  picker,
  toOption,
  relationLabelId,
}: {
  picker: DoctorPicker;
  /** Which doctors may be chosen, and how each is named in the list (null leaves it out). */
  toOption: (doctor: DoctorSummary) => { value: string; label: string } | null;
  /** Unique on the page: it names the relation switch for screen readers. */
  relationLabelId: string;
}) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const options = picker.doctors.flatMap((doctor) => {
    const option = toOption(doctor);
    return option === null ? [] : [option];
  });
  return (
    <>
      <Select
        label={t('careTeam.doctor')}
        placeholder={t('careTeam.doctorPlaceholder')}
        data={options}
        value={picker.doctorId}
        onChange={picker.setDoctorId}
        searchable
        searchValue={picker.search}
        onSearchChange={picker.setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={picker.isFetching ? tc('states.loading') : t('careTeam.noDoctor')}
        error={picker.doctorError}
        aria-invalid={picker.doctorError !== undefined}
        withAsterisk
      />
      <Stack gap={4}>
        <Text fz="sm" fw={500} id={relationLabelId}>
          {t('careTeam.relation')}
        </Text>
        <SegmentedControl
          aria-labelledby={relationLabelId}
          value={picker.relation}
          onChange={(value) => {
            picker.setRelation(value === 'FAMILY' ? 'FAMILY' : 'SPECIALIST');
          }}
          data={[
            { value: 'SPECIALIST', label: t('relation.SPECIALIST') },
            { value: 'FAMILY', label: t('relation.FAMILY') },
          ]}
        />
      </Stack>
    </>
  );
}
