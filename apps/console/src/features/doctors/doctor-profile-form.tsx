import type { SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEGREE_CODE_VALUES,
  DOCTOR_KINDS,
  LIMITS,
  SPECIALTY_CODES,
  doctorProfileUpdateSchema,
  type DoctorKind,
  type DoctorProfile,
  type DoctorProfileUpdate,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { refreshDoctors, updateDoctorProfile } from './doctors-api';

type SaveProfile = (input: DoctorProfileUpdate) => Promise<DoctorProfile>;

interface ProfileValues {
  specialties: string[];
  degreeCode: string | null;
  placeOfEducation: string;
  yearsOfExperience: number | string;
  examinationCost: number | string;
  officeAddress: string;
  officeEmail: string;
  officePhone: string;
  introduction: string;
  kind: DoctorKind;
}

const FIELD_OF_CODE = {
  'doctor.unknownSpecialty': 'specialties',
  'doctor.tooManySpecialties': 'specialties',
} as const;
const numberOrNull = (value: number | string) => (value === '' ? null : Number(value));

function valuesOf(doctor: DoctorProfile): ProfileValues {
  return {
    specialties: [...doctor.specialties],
    degreeCode: doctor.degreeCode === null ? null : String(doctor.degreeCode),
    placeOfEducation: doctor.placeOfEducation,
    yearsOfExperience: doctor.yearsOfExperience ?? '',
    examinationCost: doctor.examinationCost ?? '',
    officeAddress: doctor.officeAddress,
    officeEmail: doctor.officeEmail,
    officePhone: doctor.officePhone,
    introduction: doctor.introduction,
    kind: doctor.kind,
  };
}

function ProfileForm({
  doctor,
  save,
  onSaved,
  onClose,
  label,
}: {
  doctor: DoctorProfile;
  save: SaveProfile;
  onSaved: () => void;
  /** Without it (the doctor's own page) the form offers a reset instead of a cancel. */
  onClose?: (() => void) | undefined;
  label: string;
}) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useFormState<ProfileValues>(valuesOf(doctor));
  const mutation = useMutation({
    mutationFn: save,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('profile.saved'));
      refreshDoctors(queryClient);
      onSaved();
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });
  const { values } = form;
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (values.specialties.length > LIMITS.maxSpecialtiesPerDoctor) {
      form.setMessage('specialties', {
        key: 'doctors:profile.tooManySpecialties',
        values: { count: LIMITS.maxSpecialtiesPerDoctor },
      });
      return;
    }
    const parsed = form.validate(doctorProfileUpdateSchema, {
      ...values,
      degreeCode: values.degreeCode === null ? null : Number(values.degreeCode),
      yearsOfExperience: numberOrNull(values.yearsOfExperience),
      examinationCost: numberOrNull(values.examinationCost),
    });
    if (parsed && !mutation.isPending) mutation.mutate(parsed);
  };
  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="md">
        {isFormLevelError(mutation.error, FIELD_OF_CODE) ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <MultiSelect
          label={t('profile.specialties')}
          description={t('profile.specialtiesHint', { count: LIMITS.maxSpecialtiesPerDoctor })}
          data={SPECIALTY_CODES.map((code) => ({ value: code, label: t(`specialty.${code}`) })).sort(
            (left, right) => left.label.localeCompare(right.label),
          )}
          value={values.specialties}
          onChange={(value) => {
            form.setField('specialties', value);
          }}
          error={form.errorOf('specialties')}
          searchable
          clearable
          hidePickedOptions
          nothingFoundMessage={t('list.noOption')}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('profile.degree')}
            data={DEGREE_CODE_VALUES.map((code) => ({ value: String(code), label: t(`degree.${code}`) }))}
            value={values.degreeCode}
            onChange={(value) => {
              form.setField('degreeCode', value);
            }}
            error={form.errorOf('degreeCode')}
            clearable
          />
          <Select
            label={t('profile.kind')}
            data={DOCTOR_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))}
            value={values.kind}
            onChange={(value) => {
              form.setField('kind', DOCTOR_KINDS.find((kind) => kind === value) ?? 'SPECIALIST');
            }}
            allowDeselect={false}
          />
          <NumberInput
            label={t('profile.experience')}
            value={values.yearsOfExperience}
            onChange={(value) => {
              form.setField('yearsOfExperience', value);
            }}
            error={form.errorOf('yearsOfExperience')}
            min={0}
            max={80}
            allowDecimal={false}
          />
          <NumberInput
            label={t('profile.cost')}
            value={values.examinationCost}
            onChange={(value) => {
              form.setField('examinationCost', value);
            }}
            error={form.errorOf('examinationCost')}
            min={0}
            thousandSeparator=","
          />
        </SimpleGrid>
        <TextInput
          label={t('profile.education')}
          value={values.placeOfEducation}
          onChange={(event) => {
            form.setField('placeOfEducation', event.currentTarget.value);
          }}
          error={form.errorOf('placeOfEducation')}
          maxLength={200}
        />
        <TextInput
          label={t('profile.officeAddress')}
          value={values.officeAddress}
          onChange={(event) => {
            form.setField('officeAddress', event.currentTarget.value);
          }}
          error={form.errorOf('officeAddress')}
          maxLength={300}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('profile.officeEmail')}
            type="email"
            value={values.officeEmail}
            onChange={(event) => {
              form.setField('officeEmail', event.currentTarget.value);
            }}
            error={form.errorOf('officeEmail')}
          />
          <TextInput
            label={t('profile.officePhone')}
            value={values.officePhone}
            onChange={(event) => {
              form.setField('officePhone', event.currentTarget.value);
            }}
            error={form.errorOf('officePhone')}
          />
        </SimpleGrid>
        <Textarea
          label={t('profile.introduction')}
          value={values.introduction}
          onChange={(event) => {
            form.setField('introduction', event.currentTarget.value);
          }}
          error={form.errorOf('introduction')}
          autosize
          minRows={3}
          maxLength={2000}
        />
        <Group justify="flex-end">
          {onClose === undefined ? (
            <Button
              variant="default"
              onClick={() => {
                form.setValues(valuesOf(doctor));
                form.clearMessages();
                mutation.reset();
              }}
            >
              {tc('actions.reset')}
            </Button>
          ) : (
            <Button variant="default" onClick={onClose}>
              {tc('actions.cancel')}
            </Button>
          )}
          <Button type="submit" loading={mutation.isPending}>
            {tc('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Edit a doctor's profile (admins holding staff.update). */
export function DoctorProfileDialog({
  doctor,
  opened,
  onClose,
}: {
  doctor: DoctorProfile;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('doctors');
  return (
    <Modal opened={opened} onClose={onClose} title={t('profile.editTitle')} size="lg" centered>
      {opened ? (
        <ProfileForm
          doctor={doctor}
          save={(input) => updateDoctorProfile(doctor.id, input)}
          onSaved={onClose}
          onClose={onClose}
          label={t('profile.editTitle')}
        />
      ) : null}
    </Modal>
  );
}

/** The calling doctor's own qualification, inline: the admin's form and rules, saved through the doctor's own call. */
export function DoctorQualificationForm({ doctor, save }: { doctor: DoctorProfile; save: SaveProfile }) {
  const { t } = useTranslation('doctors');
  return (
    <ProfileForm doctor={doctor} save={save} onSaved={() => undefined} label={t('self.qualificationTitle')} />
  );
}
