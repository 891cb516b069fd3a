import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ticketCreateSchema, type TicketCreate } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import {
  fieldMessageText,
  messagesForIssues,
  serverFieldMessages,
  type FieldMessages,
} from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { patientListQuery } from '../patients/patients-api';
import { useSession } from '../shell/session-context';
import { createTicket, refreshMonitoring } from './monitoring-api';

const TYPES = ['ALERT', 'CONSULTATION', 'SUPPORT'] as const;

/** Operators create tickets for a patient they see (spec §6), validated with the API's schema. */
export function TicketCreateDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('monitoring');
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [patientSearch, setPatientSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(patientSearch, 300);
  const [values, setValues] = useState({
    patientId: null as string | null,
    type: 'CONSULTATION' as (typeof TYPES)[number],
    title: '',
    description: '',
    assignToMe: true,
  });
  const [errors, setErrors] = useState<FieldMessages>({});
  const patients = useQuery({
    ...patientListQuery({
      page: 0,
      size: 20,
      search: debouncedSearch,
      scope: 'center',
      sortField: 'name',
      sortType: 'asc',
      status: null,
      centerId: null,
      doctorId: null,
      packageCode: '',
    }),
    enabled: opened,
  });
  const create = useMutation({
    mutationFn: (input: TicketCreate) => createTicket(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('tickets.create.created', { number: saved.number }));
      refreshMonitoring(queryClient);
      onClose();
      void navigate(saved.id);
    },
    onError: (error) => {
      setErrors(serverFieldMessages(error));
    },
  });
  const submit = () => {
    const parsed = ticketCreateSchema.safeParse({
      patientId: values.patientId ?? '',
      type: values.type,
      title: values.title,
      description: values.description,
      assigneeId: values.assignToMe ? session.user.userId : null,
    });
    if (!parsed.success) {
      const messages = messagesForIssues(parsed.error.issues);
      // An unchosen patient is "required", not a malformed id.
      if (values.patientId === null) messages.patientId = { key: 'form.required' };
      setErrors(messages);
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('tickets.create.title')} centered size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Select
            label={t('tickets.create.patient')}
            placeholder={t('tickets.create.patientPlaceholder')}
            searchable
            searchValue={patientSearch}
            onSearchChange={setPatientSearch}
            data={(patients.data?.items ?? []).map((patient) => ({
              value: patient.id,
              label: `${patient.fullName} · ${patient.patientCode}`,
            }))}
            value={values.patientId}
            onChange={(value) => {
              setValues((current) => ({ ...current, patientId: value }));
            }}
            error={fieldMessageText(errors.patientId)}
            withAsterisk
            filter={({ options }) => options}
            nothingFoundMessage={t('tickets.create.noPatients')}
          />
          <Select
            label={t('tickets.create.type')}
            data={TYPES.map((type) => ({ value: type, label: t(`ticketType.${type}`) }))}
            value={values.type}
            onChange={(value) => {
              setValues((current) => ({
                ...current,
                type: TYPES.find((type) => type === value) ?? current.type,
              }));
            }}
            allowDeselect={false}
            withAsterisk
          />
          <TextInput
            label={t('tickets.create.titleField')}
            value={values.title}
            onChange={(event) => {
              const { value } = event.currentTarget;
              setValues((current) => ({ ...current, title: value }));
            }}
            error={fieldMessageText(errors.title)}
            maxLength={120}
            withAsterisk
          />
          <Textarea
            label={t('tickets.create.description')}
            value={values.description}
            onChange={(event) => {
              const { value } = event.currentTarget;
              setValues((current) => ({ ...current, description: value }));
            }}
            error={fieldMessageText(errors.description)}
            autosize
            minRows={3}
            maxLength={2000}
          />
          <Checkbox
            label={t('tickets.create.assignToMe')}
            checked={values.assignToMe}
            onChange={(event) => {
              const { checked } = event.currentTarget;
              setValues((current) => ({ ...current, assignToMe: checked }));
            }}
          />
          {create.isError && Object.keys(errors).length === 0 ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(create.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('reasonDialog.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('tickets.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
