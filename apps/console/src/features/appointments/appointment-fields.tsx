import { useState } from 'react';
import { Alert, Button, Group, Input, Loader, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { AppointmentSlot } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatTime } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { doctorListQuery } from '../doctors/doctors-api';
import { patientListQuery } from '../patients/patients-api';
import { doctorSlotsQuery } from './appointments-api';

interface Chosen {
  id: string;
  label: string;
}

/** Options of a server-searched picker, the chosen one kept while another search is shown. */
function optionsWith(found: readonly Chosen[], chosen: Chosen | null) {
  const options = found.map((item) => ({ value: item.id, label: item.label }));
  if (chosen !== null && !options.some((option) => option.value === chosen.id))
    options.unshift({ value: chosen.id, label: chosen.label });
  return options;
}

/** A patient the user sees, found by name or code (the server searches, debounced). */
export function PatientPicker({
  value,
  onChange,
  error,
}: {
  value: Chosen | null;
  onChange: (patient: Chosen | null) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation(['schedules', 'common']);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const patients = useQuery(
    patientListQuery({
      page: 0,
      size: 20,
      search: value !== null && debouncedSearch === value.label ? '' : debouncedSearch,
      scope: 'center',
      sortField: 'name',
      sortType: 'asc',
      status: null,
      centerId: null,
      doctorId: null,
      packageCode: '',
    }),
  );
  const found = (patients.data?.items ?? []).map((patient) => ({
    id: patient.id,
    label: `${patient.fullName} · ${patient.patientCode}`,
  }));
  const options = optionsWith(found, value);
  return (
    <Select
      label={t('appointments.form.patient')}
      placeholder={t('appointments.form.patientPlaceholder')}
      data={options}
      value={value?.id ?? null}
      onChange={(id) => {
        const option = options.find((item) => item.value === id);
        onChange(option === undefined ? null : { id: option.value, label: option.label });
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={patients.isFetching ? t('common:states.loading') : t('appointments.form.noPatient')}
      error={error}
      aria-invalid={error !== undefined}
      withAsterisk
      clearable
    />
  );
}

/** A doctor the user sees, found by name (the server searches, debounced). */
export function DoctorPicker({
  value,
  onChange,
  error,
}: {
  value: Chosen | null;
  onChange: (doctor: Chosen | null) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation(['schedules', 'common']);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const doctors = useQuery(
    doctorListQuery({
      page: 0,
      size: 20,
      search: value !== null && debouncedSearch === value.label ? '' : debouncedSearch,
      sortField: 'name',
      sortType: 'asc',
      specialty: null,
      centerId: null,
      kind: null,
      licenseState: null,
    }),
  );
  const found = (doctors.data?.items ?? [])
    .filter((doctor) => doctor.status === 'ACTIVE')
    .map((doctor) => ({ id: doctor.id, label: doctor.fullName }));
  const options = optionsWith(found, value);
  return (
    <Select
      label={t('appointments.form.doctor')}
      placeholder={t('appointments.form.doctorPlaceholder')}
      data={options}
      value={value?.id ?? null}
      onChange={(id) => {
        const option = options.find((item) => item.value === id);
        onChange(option === undefined ? null : { id: option.value, label: option.label });
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: all }) => all}
      nothingFoundMessage={doctors.isFetching ? t('common:states.loading') : t('appointments.form.noDoctor')}
      error={error}
      aria-invalid={error !== undefined}
      withAsterisk
    />
  );
}

/**
 * The doctor's slots on a day as buttons: the free ones to choose, the taken ones shown but
 * disabled. `keep` is a start that stays choosable though taken (the appointment being moved).
 */
export function SlotPicker({
  doctorId,
  day,
  value,
  keep,
  onChange,
  error,
}: {
  doctorId: string | null;
  /** yyyy-MM-dd, or null while no real day is typed. */
  day: string | null;
  value: string | null;
  keep?: string;
  onChange: (slot: AppointmentSlot) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('schedules');
  const slots = useQuery({
    ...doctorSlotsQuery(doctorId ?? '', day ?? ''),
    enabled: doctorId !== null && day !== null,
  });
  const isSame = (a: string, b: string | null | undefined) =>
    b !== null && b !== undefined && Date.parse(a) === Date.parse(b);
  let body: React.ReactNode;
  if (doctorId === null || day === null) {
    body = (
      <Text fz="sm" c="dimmed">
        {t('appointments.form.chooseFirst')}
      </Text>
    );
  } else if (slots.isPending) {
    body = <Loader size="sm" />;
  } else if (slots.isError) {
    body = (
      <Alert color="red" variant="light" title={t('appointments.form.slotsFailed')}>
        {messageText(errorMessageFor(slots.error))}
      </Alert>
    );
  } else if (!slots.data.some((slot) => slot.free || isSame(slot.startAt, keep))) {
    body = (
      <Text fz="sm" c="dimmed" data-testid="no-slots">
        {t('appointments.form.noSlots')}
      </Text>
    );
  } else {
    body = (
      <Group gap={8} role="group" aria-label={t('appointments.form.slots')} data-testid="slots">
        {slots.data.map((slot) => {
          const isChosen = isSame(slot.startAt, value);
          const isChoosable = slot.free || isSame(slot.startAt, keep);
          return (
            <Button
              key={slot.startAt}
              size="xs"
              w={72}
              variant={isChosen ? 'filled' : 'default'}
              disabled={!isChoosable}
              aria-pressed={isChosen}
              data-testid="slot"
              data-free={slot.free}
              onClick={() => {
                onChange(slot);
              }}
            >
              {formatTime(slot.startAt)}
            </Button>
          );
        })}
      </Group>
    );
  }
  return (
    <Input.Wrapper
      label={t('appointments.form.slots')}
      description={t('appointments.form.slotsHint')}
      withAsterisk
      error={error}
    >
      <div style={{ marginTop: 6 }}>{body}</div>
    </Input.Wrapper>
  );
}
