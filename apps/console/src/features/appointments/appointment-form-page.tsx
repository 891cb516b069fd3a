import { useState, type SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  APPOINTMENT_PLACES,
  appointmentInputSchema,
  appointmentUpdateSchema,
  type Appointment,
  type AppointmentPlace,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { displayTimeZone, parseDisplayDate, toDisplayDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { todayIn, zonedPlace } from '../schedules/calendar-days';
import { DateField } from '../shell/date-field';
import { areaPath } from '../shell/navigation';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { appointmentTime } from './appointment-badges';
import { DoctorPicker, PatientPicker, SlotPicker } from './appointment-fields';
import {
  APPOINTMENTS_QUERY_ROOT,
  appointmentQuery,
  createAppointment,
  updateAppointment,
} from './appointments-api';

interface Chosen {
  id: string;
  label: string;
}

export interface AppointmentValues {
  patient: Chosen | null;
  doctor: Chosen | null;
  /** As typed, dd/MM/yyyy. */
  day: string;
  /** The chosen slot's start (ISO), or '' before one is chosen. */
  startAt: string;
  reason: string;
  note: string;
  place: AppointmentPlace;
  paid: boolean;
}

/** Refusals about the chosen time: said under the slots, which are fetched again. */
const SLOT_CODES = new Set(['appointment.notASlot', 'appointment.slotTaken']);
const isSlotRefusal = (error: unknown) =>
  isApiError(error) && error.code !== undefined && SLOT_CODES.has(error.code);

function detailsOf(values: AppointmentValues) {
  return {
    startAt: values.startAt === '' ? undefined : values.startAt,
    reason: values.reason.trim(),
    ...(values.note.trim() === '' ? {} : { note: values.note.trim() }),
    place: values.place,
    paid: values.paid,
  };
}

/** The form shared by booking and editing; `appointment` is the one being edited. */
function AppointmentForm({ appointment }: { appointment?: Appointment }) {
  const { t } = useTranslation(['schedules', 'common']);
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const zone = displayTimeZone();
  const today = todayIn(zone);
  const isDoctor = session.user.role === 'DOCTOR';
  const isEdit = appointment !== undefined;
  const form = useFormState<AppointmentValues>(
    appointment === undefined
      ? {
          patient: null,
          doctor: isDoctor ? { id: session.user.userId, label: session.user.fullName } : null,
          day: toDisplayDate(today),
          startAt: '',
          reason: '',
          note: '',
          place: 'CLINIC',
          paid: false,
        }
      : {
          patient: { id: appointment.patient.id, label: appointment.patient.fullName },
          doctor: { id: appointment.doctor.id, label: appointment.doctor.fullName },
          day: toDisplayDate(zonedPlace(appointment.startAt, zone).day),
          startAt: appointment.startAt,
          reason: appointment.reason,
          note: appointment.note ?? '',
          place: appointment.place,
          paid: appointment.paid,
        },
  );
  const { values } = form;
  const [refreshedNotice, setRefreshedNotice] = useState(false);
  const day = parseDisplayDate(values.day);
  const isPastDay = day !== null && day < today;

  const save = useMutation({
    mutationFn: () => {
      const details = detailsOf(values);
      if (appointment !== undefined)
        return updateAppointment(appointment.id, appointmentUpdateSchema.parse(details));
      return createAppointment(
        appointmentInputSchema.parse({
          ...details,
          patientId: values.patient?.id,
          doctorId: values.doctor?.id,
        }),
      );
    },
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(isEdit ? t('appointments.form.saved') : t('appointments.form.created'));
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_QUERY_ROOT });
      void navigate(areaPath(session.area, `appointments/${saved.id}`));
    },
    onError: (error) => {
      if (form.showServerErrors(error)) return;
      if (isSlotRefusal(error)) {
        // Someone else took the slot (or it closed): the slots are fetched again, the choice undone.
        void queryClient.invalidateQueries({ queryKey: [...APPOINTMENTS_QUERY_ROOT, 'slots'] });
        form.setField('startAt', isEdit ? appointment.startAt : '');
        form.setMessage('startAt', { text: messageText(errorMessageFor(error)) });
        setRefreshedNotice(true);
      }
    },
  });
  const isFieldError =
    isApiError(save.error) && (save.error.fieldErrors.length > 0 || isSlotRefusal(save.error));

  const setField = <K extends keyof AppointmentValues>(name: K, value: AppointmentValues[K]) => {
    form.setField(name, value);
    save.reset();
    setRefreshedNotice(false);
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.reset();
    const details = detailsOf(values);
    const checked = isEdit
      ? form.validate(appointmentUpdateSchema, details)
      : form.validate(appointmentInputSchema, {
          ...details,
          patientId: values.patient?.id,
          doctorId: values.doctor?.id,
        });
    // Words of this form for what the schema only calls invalid: nothing chosen yet.
    const missing: [string, string][] = [];
    if (!isEdit && values.patient === null) missing.push(['patientId', 'common:form.required']);
    if (!isEdit && values.doctor === null) missing.push(['doctorId', 'common:form.required']);
    if (day === null) missing.push(['day', values.day.trim() === '' ? 'common:form.required' : 'common:form.dateInvalid']);
    if (values.startAt === '') missing.push(['startAt', 'schedules:appointments.form.slotRequired']);
    for (const [path, key] of missing) form.setMessage(path, { key });
    if (checked === null || missing.length > 0) return;
    save.mutate();
  };

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('appointments.form.label')}>
      <Paper withBorder radius="md" p="lg" maw={860}>
        <Stack gap="md">
          {save.isError && !isFieldError ? (
            <Alert color="red" variant="light" role="alert" data-testid="appointment-form-error">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {isEdit ? (
              <Stack gap={2}>
                <Text fz="sm" fw={500}>
                  {t('appointments.form.patient')}
                </Text>
                <Text fz="sm">
                  {appointment.patient.fullName} · {appointment.patient.patientCode}
                </Text>
              </Stack>
            ) : (
              <PatientPicker
                value={values.patient}
                onChange={(patient) => {
                  setField('patient', patient);
                }}
                error={form.errorOf('patientId')}
              />
            )}
            {isEdit || isDoctor ? (
              <Stack gap={2}>
                <Text fz="sm" fw={500}>
                  {t('appointments.form.doctor')}
                </Text>
                <Text fz="sm" data-testid="fixed-doctor">
                  {values.doctor?.label}
                </Text>
              </Stack>
            ) : (
              <DoctorPicker
                value={values.doctor}
                onChange={(doctor) => {
                  setField('doctor', doctor);
                  setField('startAt', '');
                }}
                error={form.errorOf('doctorId')}
              />
            )}
          </SimpleGrid>
          <DateField
            label={t('appointments.form.day')}
            value={values.day}
            error={form.errorOf('day') ?? (isPastDay ? t('appointments.form.pastDay') : undefined)}
            onChange={(text) => {
              setField('day', text);
              if (!isEdit) setField('startAt', '');
            }}
            isRequired
            width={180}
          />
          {isEdit ? (
            <Text fz="sm" c="dimmed">
              {t('appointments.form.currentSlot', { time: appointmentTime(appointment) })}
            </Text>
          ) : null}
          <SlotPicker
            doctorId={values.doctor?.id ?? null}
            day={isPastDay ? null : day}
            value={values.startAt === '' ? null : values.startAt}
            keep={appointment?.startAt}
            onChange={(slot) => {
              setField('startAt', slot.startAt);
            }}
            error={form.errorOf('startAt')}
          />
          {refreshedNotice ? (
            <Text fz="sm" c="orange.8" role="status">
              {t('appointments.form.slotsRefreshed')}
            </Text>
          ) : null}
          <Textarea
            label={t('appointments.form.reason')}
            value={values.reason}
            onChange={(event) => {
              setField('reason', event.currentTarget.value);
            }}
            error={form.errorOf('reason')}
            aria-invalid={form.errorOf('reason') !== undefined}
            autosize
            minRows={2}
            maxLength={500}
            withAsterisk
          />
          <Textarea
            label={t('appointments.form.note')}
            value={values.note}
            onChange={(event) => {
              setField('note', event.currentTarget.value);
            }}
            error={form.errorOf('note')}
            autosize
            minRows={2}
            maxLength={1000}
          />
          <Group align="flex-end" gap="xl">
            <Select
              label={t('appointments.form.place')}
              data={APPOINTMENT_PLACES.map((place) => ({
                value: place,
                label: t(`appointments.place.${place}`),
              }))}
              value={values.place}
              onChange={(value) => {
                const place = APPOINTMENT_PLACES.find((option) => option === value);
                if (place !== undefined) setField('place', place);
              }}
              allowDeselect={false}
              w={260}
            />
            <Checkbox
              label={t('appointments.form.paidLabel')}
              checked={values.paid}
              onChange={(event) => {
                setField('paid', event.currentTarget.checked);
              }}
              mb={8}
            />
          </Group>
          <Group justify="flex-end">
            <Button
              component={Link}
              to={areaPath(session.area, isEdit ? `appointments/${appointment.id}` : 'appointments')}
              variant="default"
            >
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {isEdit ? t('appointments.form.save') : t('appointments.form.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

function FormHeader({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <Stack gap={2}>
      <Title order={1} fz={26}>
        {title}
      </Title>
      <Text c="dimmed" fz="sm">
        {subtitle}
      </Text>
    </Stack>
  );
}

/** /<area>/appointments/new: book a patient into a free slot of a doctor (a doctor: its own). */
export function NewAppointmentPage() {
  const { t } = useTranslation('schedules');
  usePageTitle(t('appointments.form.newTitle'));
  return (
    <Stack gap="lg">
      <FormHeader title={t('appointments.form.newTitle')} subtitle={t('appointments.form.newSubtitle')} />
      <AppointmentForm />
    </Stack>
  );
}

/** /<area>/appointments/:id/edit: the details of an upcoming appointment, or another free slot. */
export function EditAppointmentPage() {
  const { t } = useTranslation(['schedules', 'errors']);
  usePageTitle(t('appointments.form.editTitle'));
  const { appointmentId = '' } = useParams();
  const appointment = useQuery(appointmentQuery(appointmentId));
  let body: React.ReactNode;
  if (appointment.isPending) body = <LoadingState />;
  else if (appointment.isError)
    body = (
      <ErrorState
        error={appointment.error}
        title={t('appointments.detail.loadFailed')}
        onRetry={() => void appointment.refetch()}
      />
    );
  else if (appointment.data.status !== 'UPCOMING')
    body = (
      <Alert color="orange" variant="light">
        {t('errors:appointment.wrongState')}
      </Alert>
    );
  else body = <AppointmentForm key={appointment.data.id} appointment={appointment.data} />;
  return (
    <Stack gap="lg">
      <FormHeader title={t('appointments.form.editTitle')} subtitle={t('appointments.form.editSubtitle')} />
      {body}
    </Stack>
  );
}
