import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Input,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { prescriptionTotalDays, type PrescriptionDetail, type PrescriptionInput } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { parseDisplayDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { careTeamQuery } from '../doctors/doctors-api';
import { DateField } from '../shell/date-field';
import { PlusIcon } from '../shell/icons';
import { useSession } from '../shell/session-context';
import { createPrescription, refreshCarePlan, replacePrescription } from './care-plan-api';
import { useCarePlanToday } from './care-plan-today';
import {
  emptyMedicine,
  emptyPrescription,
  valuesFromDetail,
  type MedicineValues,
  type PrescriptionValues,
  type ScheduleValues,
} from './form-values';
import { checkPrescription, serverMessages } from './problems';
import { usePrescriptionForm } from './use-prescription-form';
import { MedicineFields } from './medicine-fields';

/** The most medicines a prescription holds (contracts prescriptionInputSchema). */
const MAX_MEDICINES = 50;

export type PrescriptionFormMode =
  | { kind: 'new' }
  | { kind: 'edit'; prescription: PrescriptionDetail }
  | { kind: 'reuse'; prescription: PrescriptionDetail };

/** The doctors who may be put in charge: the care team, the signed-in doctor, the one already named. */
function useDoctorOptions(patientId: string, current: { id: string; fullName: string } | null) {
  const { t } = useTranslation('carePlan');
  const session = useSession();
  const team = useQuery(careTeamQuery(patientId));
  const options: { value: string; label: string }[] = [];
  const add = (id: string, name: string) => {
    if (options.some((option) => option.value === id)) return;
    options.push({ value: id, label: id === session.user.userId ? t('form.you', { name }) : name });
  };
  if (session.user.role === 'DOCTOR') add(session.user.userId, session.user.fullName);
  for (const entry of team.data ?? []) add(entry.doctor.id, entry.doctor.fullName);
  if (current !== null) add(current.id, current.fullName);
  return { options, isLoading: team.isPending };
}

/**
 * Write, edit or reuse a prescription (spec §2, §3 Prescription and Medicine, §5 rules): its fields
 * and its medicines. Checked on the client with the contract's schema and §5 rules before it is
 * sent; the server's field errors show the same way. An edit is saved as a new version (the
 * server deactivates the one edited).
 */
export function PrescriptionForm({
  patientId,
  mode,
  onCancel,
  onSaved,
}: {
  patientId: string;
  mode: PrescriptionFormMode;
  onCancel: () => void;
  onSaved: (saved: PrescriptionDetail) => void;
}) {
  const { t } = useTranslation('carePlan');
  const { t: tc } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const today = useCarePlanToday();
  const firstTime = { label: t('form.defaultTimeLabel'), time: '08:00' };
  const [initial] = useState<PrescriptionValues>(() =>
    mode.kind === 'new'
      ? emptyPrescription(today, session.user.role === 'DOCTOR' ? session.user.userId : null, firstTime)
      : valuesFromDetail(mode.prescription, mode.kind, today, firstTime),
  );
  const form = usePrescriptionForm(initial);
  const { values } = form;
  const [hasTried, setTried] = useState(false);
  const doctors = useDoctorOptions(patientId, mode.kind === 'new' ? null : mode.prescription.doctorInCharge);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  const save = useMutation({
    mutationFn: (input: PrescriptionInput) =>
      mode.kind === 'edit'
        ? replacePrescription(patientId, mode.prescription.id, input)
        : createPrescription(patientId, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(
        mode.kind === 'edit'
          ? t('form.savedEdit', { name: saved.name })
          : t('form.saved', { name: saved.name }),
      );
      refreshCarePlan(queryClient);
      onSaved(saved);
    },
    onError: (error) => {
      form.show(serverMessages(error));
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    save.reset();
    const checked = checkPrescription(values);
    form.show(checked.messages);
    if (checked.input !== null && !save.isPending) save.mutate(checked.input);
  };

  const setField = <K extends keyof PrescriptionValues>(
    name: K,
    value: PrescriptionValues[K],
    fixes: readonly string[] = [name],
  ) => {
    form.change((current) => ({ ...current, [name]: value }), fixes);
  };
  const setMedicine = (index: number, patch: Partial<MedicineValues>, fixes: readonly string[]) => {
    form.change(
      (current) => ({
        ...current,
        medicines: current.medicines.map((medicine, at) =>
          at === index ? { ...medicine, ...patch } : medicine,
        ),
      }),
      fixes,
    );
  };
  const setSchedule = (index: number, patch: Partial<ScheduleValues>, fixes: readonly string[]) => {
    form.change(
      (current) => ({
        ...current,
        medicines: current.medicines.map((medicine, at) =>
          at === index ? { ...medicine, schedule: { ...medicine.schedule, ...patch } } : medicine,
        ),
      }),
      fixes,
    );
  };

  const startDate = parseDisplayDate(values.startDate);
  const endDate = parseDisplayDate(values.endDate);
  const totalDays =
    startDate !== null && endDate !== null && startDate <= endDate
      ? prescriptionTotalDays(startDate, endDate)
      : null;
  const messageCount = Object.keys(form.messages).length;
  const title =
    mode.kind === 'new'
      ? t('form.newTitle')
      : mode.kind === 'edit'
        ? t('form.editTitle')
        : t('form.reuseTitle');

  return (
    <form
      ref={form.formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label={title}
      data-testid="prescription-form"
    >
      <Stack gap="md">
        <Anchor
          component="button"
          type="button"
          fz="sm"
          onClick={onCancel}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('form.back')}
        </Anchor>
        <Stack gap={4}>
          <Title order={2} fz="xl" ref={headingRef} tabIndex={-1}>
            {title}
          </Title>
          {mode.kind === 'edit' ? (
            <Text fz="sm" c="dimmed">
              {t('form.editHint', { name: mode.prescription.name })}
            </Text>
          ) : null}
          {mode.kind === 'reuse' ? (
            <Text fz="sm" c="dimmed">
              {t('form.reuseHint', { name: mode.prescription.name })}
            </Text>
          ) : null}
        </Stack>
        {save.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="save-error">
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : hasTried && messageCount > 0 ? (
          <Alert color="red" variant="light" role="alert" data-testid="form-problems">
            {t('form.fixFields', { count: messageCount })}
          </Alert>
        ) : null}
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={3} fz="md">
              {t('form.prescription')}
            </Title>
            <SimpleGrid cols={3} spacing="md">
              <TextInput
                label={t('fields.name')}
                value={values.name}
                maxLength={200}
                onChange={(event) => {
                  setField('name', event.currentTarget.value);
                }}
                error={form.errorOf('name')}
                withAsterisk
              />
              <TextInput
                label={t('fields.rxNumber')}
                value={values.rxNumber}
                maxLength={60}
                onChange={(event) => {
                  setField('rxNumber', event.currentTarget.value);
                }}
                error={form.errorOf('rxNumber')}
              />
              <Select
                label={t('fields.doctorInCharge')}
                data={doctors.options}
                value={values.doctorInChargeId}
                onChange={(value) => {
                  setField('doctorInChargeId', value);
                }}
                error={form.errorOf('doctorInChargeId')}
                placeholder={doctors.isLoading ? tc('states.loading') : t('form.chooseDoctor')}
                searchable
                allowDeselect={false}
                withAsterisk
                comboboxProps={{ withinPortal: true }}
              />
            </SimpleGrid>
            <Group gap="md" align="flex-start">
              <DateField
                label={t('fields.startDate')}
                value={values.startDate}
                onChange={(value) => {
                  setField('startDate', value, ['startDate', 'endDate']);
                }}
                error={form.errorOf('startDate')}
                isRequired
                width={160}
              />
              <DateField
                label={t('fields.endDate')}
                value={values.endDate}
                onChange={(value) => {
                  setField('endDate', value, ['startDate', 'endDate']);
                }}
                error={form.errorOf('endDate')}
                isRequired
                width={160}
              />
              <Stack gap={4} w={140}>
                <Input.Label id="total-days-label">{t('fields.totalDays')}</Input.Label>
                <Text fz="sm" py={6} aria-labelledby="total-days-label" data-testid="total-days">
                  {totalDays === null ? t('detail.none') : t('list.days', { count: totalDays })}
                </Text>
              </Stack>
              <NumberInput
                label={t('fields.refills')}
                value={values.refills}
                min={0}
                max={99}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                onChange={(value) => {
                  setField('refills', typeof value === 'number' ? value : '');
                }}
                error={form.errorOf('refills')}
                withAsterisk
                w={140}
              />
            </Group>
            <SimpleGrid cols={2} spacing="md">
              <Textarea
                label={t('fields.diagnosis')}
                value={values.diagnosis}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={2000}
                onChange={(event) => {
                  setField('diagnosis', event.currentTarget.value);
                }}
                error={form.errorOf('diagnosis')}
              />
              <Textarea
                label={t('fields.noteForPatient')}
                value={values.noteForPatient}
                autosize
                minRows={2}
                maxRows={6}
                maxLength={2000}
                onChange={(event) => {
                  setField('noteForPatient', event.currentTarget.value);
                }}
                error={form.errorOf('noteForPatient')}
              />
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Group justify="space-between">
              <Title order={3} fz="md">
                {t('form.medicines', { count: values.medicines.length })}
              </Title>
            </Group>
            {form.errorOf('medicines') === undefined ? null : (
              <Input.Error role="alert">{form.errorOf('medicines')}</Input.Error>
            )}
            {values.medicines.map((medicine, index) => (
              <MedicineFields
                key={medicine.key}
                medicine={medicine}
                number={index + 1}
                path={`medicines.${String(index)}`}
                errorOf={form.errorOf}
                onChange={(patch, fixes) => {
                  setMedicine(index, patch, fixes);
                }}
                onScheduleChange={(patch, fixes) => {
                  setSchedule(index, patch, fixes);
                }}
                onRemove={() => {
                  // The medicines after it move up: their messages no longer match them.
                  form.change(
                    (current) => ({
                      ...current,
                      medicines: current.medicines.filter((_, at) => at !== index),
                    }),
                    ['medicines'],
                  );
                }}
              />
            ))}
            <Group>
              <Button
                variant="light"
                leftSection={<PlusIcon />}
                disabled={values.medicines.length >= MAX_MEDICINES}
                onClick={() => {
                  form.change(
                    (current) => ({
                      ...current,
                      medicines: [...current.medicines, emptyMedicine(current.startDate, firstTime)],
                    }),
                    [],
                    ['medicines'],
                  );
                }}
              >
                {t('form.addMedicine')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {mode.kind === 'edit' ? t('form.submitEdit') : t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
