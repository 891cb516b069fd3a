import type { SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Divider,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  BLOOD_TYPES,
  GENDERS,
  IDENTIFIER_REQUIRED_MESSAGE,
  patientCreateSchema,
  patientUpdateSchema,
  type PatientDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldOfError, isFormLevelError, messageForIssue } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { useOrgReach } from '../levels/use-org-reach';
import { DateField } from '../shell/date-field';
import { createPatient, refreshPatients, updatePatient } from './patients-api';
import { EMPTY_PATIENT, patientPayload, patientValuesOf, type PatientValues } from './patient-form-values';

/** Server answers that belong under one field. */
const FIELD_OF_CODE: Partial<Record<string, string>> = {
  'patient.codeExists': 'patientCode',
  'patient.phoneExists': 'phone',
  'patient.emailExists': 'email',
  'patient.contractIdExists': 'contractId',
  'patient.contractIdLocked': 'contractId',
  'patient.identifierRequired': 'phone',
  'patient.underage': 'birthday',
  'center.notFound': 'healthCenterId',
};

/** Form fields by the API's field path (the address is nested there). */
const RENAME: Record<string, string> = {
  'address.line': 'addressLine',
  'address.ward': 'ward',
  'address.district': 'district',
  'address.province': 'province',
  'address.country': 'country',
};

type TextField = Exclude<keyof PatientValues, 'gender' | 'bloodType' | 'healthCenterId'>;

/** Create or edit a patient (spec §3 Patient, §5 rules, checked by the contract's schema first). */
export function PatientForm({ patient }: { patient: PatientDetail | null }) {
  const { t } = useTranslation('patients');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { centers } = useOrgReach();
  const form = useFormState<PatientValues>(patient ? patientValuesOf(patient) : EMPTY_PATIENT);
  const { values } = form;
  const isContractLocked = patient !== null && patient.contractId !== null;

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof patientPayload>) =>
      patient
        ? updatePatient(patient.id, patientUpdateSchema.parse(body))
        : createPatient(patientCreateSchema.parse(body)),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(patient ? t('form.saved') : t('form.created', { code: saved.patientCode }));
      refreshPatients(queryClient);
      void navigate(patient ? '..' : `../${saved.id}`, { relative: 'path' });
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error, RENAME);
    },
  });

  const isUnderage = (issue: Parameters<typeof messageForIssue>[0]) => {
    const message = messageForIssue(issue);
    return 'key' in message && message.key === 'form.underage';
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const payload = patientPayload(values);
    const schema = patient ? patientUpdateSchema : patientCreateSchema;
    const result = schema.safeParse(payload);
    const parsed = form.validate(schema, payload);
    if (!result.success) {
      // Nested and custom messages: the address lines by their form names, the identifier rule in words.
      for (const issue of result.error.issues) {
        const path = issue.path.map(String).join('.');
        if (issue.message === IDENTIFIER_REQUIRED_MESSAGE)
          form.setMessage('phone', { key: 'patients:form.identifierHint' });
        // Staff enter the patient's birthday: the age rule speaks of the patient, not of "you".
        else if (path === 'birthday' && isUnderage(issue))
          form.setMessage('birthday', { key: 'patients:import.reasons.underage' });
        else if (RENAME[path] !== undefined) form.setMessage(RENAME[path], { key: 'form.invalid' });
      }
    }
    if (parsed && !save.isPending) save.mutate(payload);
  };

  const text = (name: TextField) => ({
    value: values[name],
    error: form.errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      form.setField(name, event.currentTarget.value);
    },
  });
  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);

  return (
    <form
      ref={form.formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label={patient ? t('form.editTitle', { code: patient.patientCode }) : t('form.createTitle')}
    >
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {showAlert ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Divider label={t('form.sections.identity')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('form.firstName')}
              withAsterisk
              autoComplete="off"
              data-autofocus
              {...text('firstName')}
            />
            <TextInput label={t('form.middleName')} autoComplete="off" {...text('middleName')} />
            <TextInput label={t('form.lastName')} withAsterisk autoComplete="off" {...text('lastName')} />
            <DateField
              label={t('form.birthday')}
              value={values.birthday}
              error={form.errorOf('birthday')}
              onChange={(value) => {
                form.setField('birthday', value);
              }}
              isRequired
            />
            <Select
              label={t('form.gender')}
              data={GENDERS.map((gender) => ({ value: gender, label: t(`gender.${gender}`) }))}
              value={values.gender}
              onChange={(value) => {
                form.setField('gender', value);
              }}
              error={form.errorOf('gender')}
              withAsterisk
            />
            <TextInput
              label={t('form.patientCode')}
              description={patient ? undefined : t('form.patientCodeHint')}
              autoComplete="off"
              {...text('patientCode')}
            />
          </SimpleGrid>
          <Divider label={t('form.sections.contact')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('form.phone')}
              description={t('form.identifierHint')}
              inputMode="tel"
              autoComplete="off"
              {...text('phone')}
            />
            <TextInput label={t('form.email')} type="email" autoComplete="off" {...text('email')} />
            <Select
              label={t('form.healthCenter')}
              data={centers.map((center) => ({ value: center.id, label: center.name }))}
              value={values.healthCenterId}
              onChange={(value) => {
                form.setField('healthCenterId', value);
              }}
              error={form.errorOf('healthCenterId')}
              searchable
              clearable
            />
          </SimpleGrid>
          <Divider label={t('form.sections.health')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <TextInput label={t('form.heightCm')} inputMode="decimal" {...text('heightCm')} />
            <TextInput label={t('form.weightKg')} inputMode="decimal" {...text('weightKg')} />
            <Select
              label={t('form.bloodType')}
              data={BLOOD_TYPES.map((type) => ({ value: type, label: type }))}
              value={values.bloodType}
              onChange={(value) => {
                form.setField('bloodType', value);
              }}
              error={form.errorOf('bloodType')}
              clearable
            />
          </SimpleGrid>
          <Textarea
            label={t('form.medicalNotes')}
            autosize
            minRows={2}
            maxRows={6}
            {...text('medicalNotes')}
          />
          <Divider label={t('form.sections.address')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <TextInput label={t('form.addressLine')} {...text('addressLine')} />
            <TextInput label={t('form.ward')} {...text('ward')} />
            <TextInput label={t('form.district')} {...text('district')} />
            <TextInput label={t('form.province')} {...text('province')} />
            <TextInput label={t('form.country')} {...text('country')} />
          </SimpleGrid>
          <Divider label={t('form.sections.account')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('form.contractId')}
              description={isContractLocked ? t('form.contractIdLocked') : undefined}
              readOnly={isContractLocked}
              autoComplete="off"
              {...text('contractId')}
            />
            <TextInput label={t('form.packageCode')} autoComplete="off" {...text('packageCode')} />
            <DateField
              label={t('form.packageExpiresAt')}
              value={values.packageExpiresAt}
              error={form.errorOf('packageExpiresAt')}
              onChange={(value) => {
                form.setField('packageExpiresAt', value);
              }}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button component={Link} to=".." relative="path" variant="default">
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {patient ? t('form.save') : t('form.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
