import { useState } from 'react';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { staffListQuery } from './staff-api';

/** A doctor assistant's doctors: the doctors the caller sees, at the chosen center when there is one. */
export function DoctorsField({
  centerId,
  value,
  known,
  error,
  onChange,
}: {
  centerId: string | null;
  value: string[];
  known: { id: string; fullName: string }[];
  error: string | undefined;
  onChange: (ids: string[]) => void;
}) {
  const { t } = useTranslation('org');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const doctors = useQuery(
    staffListQuery('mhscDoctor', {
      page: 0,
      size: 50,
      search: debounced,
      sortField: 'name',
      sortType: 'asc',
      status: 'ACTIVE',
      centerId,
    }),
  );
  const labels = new Map(known.map((doctor) => [doctor.id, doctor.fullName]));
  for (const doctor of doctors.data?.items ?? []) labels.set(doctor.id, doctor.fullName);
  return (
    <MultiSelect
      label={t('staff.doctors')}
      description={t('staff.form.doctorsHint')}
      data={[...labels].map(([id, name]) => ({ value: id, label: name }))}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      error={error}
      nothingFoundMessage={t('admins.noMatch')}
      withAsterisk
    />
  );
}
