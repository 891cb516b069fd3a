import { useState } from 'react';
import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PatientDetail, PatientStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { changePatientStatus, deletePatient, refreshPatients } from './patients-api';
import { PatientStatusBadge } from './patient-status-badge';

/** "Change status" (spec §4): only the statuses the transitions allow, with a required reason. */
export function StatusChangeDialog({
  patient,
  opened,
  onClose,
}: {
  patient: PatientDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<PatientStatus | null>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ target?: string; reason?: string }>({});
  const close = () => {
    setTarget(null);
    setReason('');
    setErrors({});
    change.reset();
    onClose();
  };
  const change = useMutation({
    mutationFn: (input: { status: PatientStatus; reason: string }) => changePatientStatus(patient.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('status_dialog.done', { status: t(`status.${saved.status}`) }));
      refreshPatients(queryClient);
      close();
    },
  });
  const submit = () => {
    const found: typeof errors = {};
    if (target === null) found.target = t('status_dialog.target');
    if (reason.trim() === '') found.reason = t('status_dialog.reason');
    setErrors(found);
    if (target !== null && reason.trim() !== '') change.mutate({ status: target, reason: reason.trim() });
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('status_dialog.title', { name: patient.fullName })}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Group gap="xs">
            <Text fz="sm" c="dimmed">
              {t('status_dialog.current')}
            </Text>
            <PatientStatusBadge status={patient.status} />
          </Group>
          {patient.allowedStatuses.length === 0 ? <Text>{t('status_dialog.noTargets')}</Text> : null}
          <Radio.Group
            label={t('status_dialog.target')}
            value={target}
            onChange={(value) => {
              setTarget(patient.allowedStatuses.find((status) => status === value) ?? null);
              setErrors((current) => ({ ...current, target: undefined }));
            }}
            error={errors.target === undefined ? undefined : messageText({ key: 'form.required' })}
            withAsterisk
          >
            <Group mt="xs">
              {patient.allowedStatuses.map((status) => (
                <Radio key={status} value={status} label={t(`status.${status}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Textarea
            label={t('status_dialog.reason')}
            placeholder={t('status_dialog.reasonPlaceholder')}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setErrors((current) => ({ ...current, reason: undefined }));
            }}
            error={
              errors.reason === undefined ? undefined : messageText({ key: 'errors:patient.reasonRequired' })
            }
            withAsterisk
            autosize
            minRows={3}
            maxLength={1000}
          />
          {change.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(change.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('status_dialog.cancel')}
            </Button>
            <Button type="submit" loading={change.isPending} disabled={patient.allowedStatuses.length === 0}>
              {t('status_dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** "Delete account" (spec §4): the patient id typed again; irreversible, data removed after 30 days. */
export function DeleteAccountDialog({
  patient,
  opened,
  onClose,
}: {
  patient: PatientDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const [isMismatch, setMismatch] = useState(false);
  const remove = useMutation({
    mutationFn: () =>
      deletePatient(patient.id, {
        confirmPatientCode: typed.trim(),
        ...(reason.trim() === '' ? {} : { reason: reason.trim() }),
      }),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('delete_dialog.done', { name: patient.fullName }));
      refreshPatients(queryClient);
      void navigate('..', { relative: 'path' });
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('delete_dialog.title', { name: patient.fullName })}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const matches = typed.trim().toUpperCase() === patient.patientCode.toUpperCase();
          setMismatch(!matches);
          if (matches) remove.mutate();
        }}
      >
        <Stack gap="md">
          <Alert color="red" variant="light">
            {t('delete_dialog.warning')}
          </Alert>
          <TextInput
            label={t('delete_dialog.confirmLabel', { code: patient.patientCode })}
            value={typed}
            onChange={(event) => {
              setTyped(event.currentTarget.value);
              setMismatch(false);
            }}
            error={isMismatch ? t('delete_dialog.mismatch', { code: patient.patientCode }) : undefined}
            autoComplete="off"
            withAsterisk
            data-autofocus
          />
          <Textarea
            label={t('delete_dialog.reason')}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
            }}
            maxLength={500}
          />
          {remove.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(remove.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('delete_dialog.cancel')}
            </Button>
            <Button type="submit" color="red" loading={remove.isPending}>
              {t('delete_dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
