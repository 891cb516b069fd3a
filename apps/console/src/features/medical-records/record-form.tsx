import { useRef, useState, type ComponentProps, type SubmitEvent } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  FileButton,
  Group,
  Input,
  Modal,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  MEDICAL_RECORD_EARLIEST_DATE,
  MEDICAL_RECORD_MAX_FILES,
  MEDICAL_RECORD_TYPES,
  medicalRecordInputSchema,
  PATIENT_FILE_MAX_BYTES,
  PATIENT_FILE_TYPES,
  TENANT_SETTING_DEFAULTS,
  type MedicalRecord,
  type MedicalRecordInput,
  type PatientFile,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { endsSession, errorMessageFor } from '../../api/error-reaction';
import { fieldMessageText, fieldOfError, isFormLevelError, type FieldMessage } from '../../lib/form-errors';
import { formatBytes, formatNumber, toDisplayDate, usableTimeZone } from '../../lib/format';
import { todayIn } from '../../lib/today';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DateField } from '../shell/date-field';
import { PlusIcon } from '../shell/icons';
import { useSession } from '../shell/session-context';
import {
  createMedicalRecord,
  deleteRecordFile,
  refreshMedicalRecords,
  updateMedicalRecord,
  uploadRecordFile,
} from './medical-records-api';
import {
  checkPickedFiles,
  emptyRecordValues,
  examinationDateMessage,
  fileKindOf,
  recordCandidate,
  recordValuesOf,
  type RecordValues,
  type RefusedFile,
} from './record-form-values';

export type RecordFormMode = { kind: 'new' } | { kind: 'edit'; record: MedicalRecord };

/** A file picked to attach, sent once the record is saved; `problem` says why its upload failed. */
interface PendingFile {
  key: string;
  file: File;
  problem: FieldMessage | null;
}

/** Which upload runs: the n-th of m (0-based), and how far it is. */
interface UploadProgress {
  index: number;
  total: number;
  name: string;
  fraction: number;
}

/** Refusals that belong under one field rather than above the form. */
const FIELD_OF_CODE: Partial<Record<string, string>> = {
  'medicalRecord.invalidDate': 'examinationDate',
  'medicalRecord.tooManyFiles': 'files',
};

/**
 * The patient's today as the console knows it: the tenant's zone, every patient's default (the
 * server, which knows the patient's own zone, has the last word: `medicalRecord.invalidDate`).
 */
function useRecordToday(): string {
  const session = useSession();
  return todayIn(usableTimeZone(session.settings.TIME_ZONE ?? TENANT_SETTING_DEFAULTS.TIME_ZONE));
}

let pendingKeys = 0;

function FileRow({
  name,
  facts,
  badge,
  problem,
  removeLabel,
  onRemove,
  isDisabled,
}: {
  name: string;
  facts: string;
  badge?: string;
  problem?: string | undefined;
  removeLabel: string;
  onRemove: () => void;
  isDisabled: boolean;
}) {
  const { t } = useTranslation('patients');
  return (
    <Box component="li">
      <Paper withBorder radius="sm" px="sm" py={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="nowrap">
              <Text fz="sm" fw={600} truncate="end" title={name}>
                {name}
              </Text>
              {badge === undefined ? null : (
                <Badge size="sm" variant="light" color="blue" tt="none">
                  {badge}
                </Badge>
              )}
            </Group>
            <Text fz="xs" c="dimmed">
              {facts}
            </Text>
            {problem === undefined ? null : (
              <Text fz="xs" c="red.8" role="alert">
                {problem}
              </Text>
            )}
          </Stack>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={removeLabel}
            onClick={onRemove}
            disabled={isDisabled}
          >
            {t('records.files.remove')}
          </Button>
        </Group>
      </Paper>
    </Box>
  );
}

function RecordForm({
  patientId,
  mode,
  onClose,
  onPendingChange,
  onSaved,
}: {
  patientId: string;
  mode: RecordFormMode;
  onClose: () => void;
  /** Whether a save or an upload is running (the dialog then stays open). */
  onPendingChange: (isPending: boolean) => void;
  /** The record as saved (the dialog is then titled as editing it). */
  onSaved: (record: MedicalRecord) => void;
}) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const today = useRecordToday();
  const form = useFormState<RecordValues>(
    mode.kind === 'edit' ? recordValuesOf(mode.record) : emptyRecordValues(),
  );
  const { values } = form;
  // The record as saved so far: after a create whose uploads partly failed, saving again updates it.
  const [record, setRecord] = useState<MedicalRecord | null>(mode.kind === 'edit' ? mode.record : null);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [removing, setRemoving] = useState<PatientFile | null>(null);
  const resetPicker = useRef<() => void>(null);

  const save = useMutation({
    mutationFn: async ({ input, files }: { input: MedicalRecordInput; files: readonly PendingFile[] }) => {
      const saved =
        record === null
          ? await createMedicalRecord(patientId, input)
          : await updateMedicalRecord(patientId, record.id, input);
      setRecord(saved);
      onSaved(saved);
      refreshMedicalRecords(queryClient);
      // One file at a time, in the order picked; a failure is said beside its file and the rest go on.
      const uploaded: PatientFile[] = [];
      const failures = new Map<string, FieldMessage>();
      for (const [index, item] of files.entries()) {
        setProgress({ index, total: files.length, name: item.file.name, fraction: 0 });
        try {
          uploaded.push(
            await uploadRecordFile(patientId, saved.id, item.file, (fraction) => {
              setProgress({ index, total: files.length, name: item.file.name, fraction });
            }),
          );
        } catch (error) {
          if (endsSession(error)) throw error;
          failures.set(item.key, { text: messageText(errorMessageFor(error)) });
        }
      }
      setProgress(null);
      return { saved: { ...saved, files: [...saved.files, ...uploaded] }, failures };
    },
    meta: { errorDisplay: 'inline' },
    onMutate: () => {
      onPendingChange(true);
    },
    onSettled: () => {
      setProgress(null);
      onPendingChange(false);
    },
    onSuccess: ({ saved, failures }) => {
      refreshMedicalRecords(queryClient);
      setRecord(saved);
      // Saved, whatever became of the files: the record is kept.
      notifySuccess(t('records.form.saved', { title: saved.title }));
      if (failures.size === 0) {
        onClose();
        return;
      }
      // Only the files that failed wait, each with its reason; the dialog now edits the record.
      setPending((current) =>
        current.flatMap((item) => {
          const problem = failures.get(item.key);
          return problem === undefined ? [] : [{ ...item, problem }];
        }),
      );
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const removeFile = useMutation({
    mutationFn: (file: PatientFile) => {
      if (record === null) throw new Error('no record');
      return deleteRecordFile(patientId, record.id, file.id).then(() => file);
    },
    meta: { errorDisplay: 'inline' },
    onSuccess: (file) => {
      setRecord((current) =>
        current === null
          ? current
          : { ...current, files: current.files.filter((item) => item.id !== file.id) },
      );
      refreshMedicalRecords(queryClient);
      setRemoving(null);
    },
  });

  const savedFiles = record?.files ?? [];
  const fileCount = savedFiles.length + pending.length;
  const isBusy = save.isPending;

  const onPick = (files: File[]) => {
    const checked = checkPickedFiles(files, fileCount);
    setRefused(checked.refused);
    form.clearMessage('files');
    if (checked.accepted.length > 0)
      setPending((current) => [
        ...current,
        ...checked.accepted.map((file) => ({ key: `pending-${String(++pendingKeys)}`, file, problem: null })),
      ]);
    resetPicker.current?.();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.reset();
    const parsed = form.validate(medicalRecordInputSchema, recordCandidate(values));
    if (parsed === null) return;
    const dateMessage = examinationDateMessage(parsed.examinationDate, today);
    if (dateMessage !== null) {
      form.setMessage('examinationDate', dateMessage);
      return;
    }
    setRefused([]);
    setPending((current) => current.map((item) => ({ ...item, problem: null })));
    save.mutate({ input: parsed, files: pending.map((item) => ({ ...item, problem: null })) });
  };

  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);
  const filesError = form.errorOf('files');
  const title = record === null ? t('records.list.new') : `${tc('actions.edit')}: ${record.title}`;
  const uploadingText =
    progress === null
      ? ''
      : t('records.form.uploading', {
          number: progress.index + 1,
          total: progress.total,
          name: progress.name,
        });

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={title} data-testid="record-form">
      <Stack gap="md">
        {showAlert ? (
          <Alert color="red" variant="light" role="alert" data-testid="record-save-error">
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : null}
        <TextInput
          label={t('records.fields.title')}
          value={values.title}
          maxLength={200}
          onChange={(event) => {
            form.setField('title', event.currentTarget.value);
          }}
          error={form.errorOf('title')}
          withAsterisk
          data-autofocus
        />
        <SimpleGrid cols={2} spacing="md">
          <Select
            label={t('records.fields.type')}
            data={MEDICAL_RECORD_TYPES.map((type) => ({ value: type, label: t(`records.type.${type}`) }))}
            value={values.type}
            onChange={(value) => {
              form.setField('type', MEDICAL_RECORD_TYPES.find((type) => type === value) ?? null);
            }}
            error={form.errorOf('type')}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          <DateField
            label={t('records.fields.examinationDate')}
            description={`${toDisplayDate(MEDICAL_RECORD_EARLIEST_DATE)} – ${toDisplayDate(today)}`}
            value={values.examinationDate}
            onChange={(value) => {
              form.setField('examinationDate', value);
            }}
            error={form.errorOf('examinationDate')}
            isRequired
          />
          <TextInput
            label={t('records.fields.place')}
            value={values.place}
            maxLength={200}
            onChange={(event) => {
              form.setField('place', event.currentTarget.value);
            }}
            error={form.errorOf('place')}
          />
          <TextInput
            label={t('records.fields.doctor')}
            value={values.doctor}
            maxLength={120}
            onChange={(event) => {
              form.setField('doctor', event.currentTarget.value);
            }}
            error={form.errorOf('doctor')}
          />
        </SimpleGrid>
        <Textarea
          label={t('records.fields.note')}
          value={values.note}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={1000}
          onChange={(event) => {
            form.setField('note', event.currentTarget.value);
          }}
          error={form.errorOf('note')}
        />
        <Stack gap={6} role="group" aria-labelledby="record-files-label" aria-describedby="record-files-hint">
          <Group justify="space-between" align="flex-end">
            <Stack gap={0}>
              <Input.Label id="record-files-label">{t('records.fields.files')}</Input.Label>
              <Input.Description id="record-files-hint">
                {`JPG, PNG, PDF · ≤ ${formatNumber(PATIENT_FILE_MAX_BYTES / 1024 / 1024)} MB`}
              </Input.Description>
            </Stack>
            <Text fz="xs" c="dimmed" data-testid="record-file-total">
              {`${formatNumber(fileCount)}/${formatNumber(MEDICAL_RECORD_MAX_FILES)}`}
            </Text>
          </Group>
          {savedFiles.length + pending.length === 0 ? null : (
            <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {savedFiles.map((file) => (
                <FileRow
                  key={file.id}
                  name={file.name}
                  facts={`${fileKindOf(file.contentType)} · ${formatBytes(file.size)}`}
                  removeLabel={`${t('records.files.remove')} ${file.name}`}
                  isDisabled={isBusy}
                  onRemove={() => {
                    removeFile.reset();
                    setRemoving(file);
                  }}
                />
              ))}
              {pending.map((item) => (
                <FileRow
                  key={item.key}
                  name={item.file.name}
                  facts={formatBytes(item.file.size)}
                  badge={t('records.files.new')}
                  problem={fieldMessageText(item.problem ?? undefined)}
                  removeLabel={`${t('records.files.remove')} ${item.file.name}`}
                  isDisabled={isBusy}
                  onRemove={() => {
                    setPending((current) => current.filter((other) => other.key !== item.key));
                  }}
                />
              ))}
            </Stack>
          )}
          {refused.length === 0 && filesError === undefined ? null : (
            <Stack gap={2} role="alert" data-testid="record-file-problems">
              {filesError === undefined ? null : <Input.Error>{filesError}</Input.Error>}
              {refused.map(({ name, message }, index) => (
                <Input.Error key={index}>
                  {name === null ? fieldMessageText(message) : `${name}: ${fieldMessageText(message) ?? ''}`}
                </Input.Error>
              ))}
            </Stack>
          )}
          <Group>
            <FileButton
              resetRef={resetPicker}
              multiple
              accept={PATIENT_FILE_TYPES.join(',')}
              onChange={onPick}
              disabled={isBusy || fileCount >= MEDICAL_RECORD_MAX_FILES}
              inputProps={{ 'data-testid': 'record-file-input' } as ComponentProps<'input'>}
            >
              {(props) => (
                <Button {...props} variant="light" size="xs" leftSection={<PlusIcon />}>
                  {t('records.files.add')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Stack>
        {progress === null ? null : (
          <Stack gap={4} role="status" aria-live="polite" data-testid="record-upload-progress">
            <Text fz="sm">{uploadingText}</Text>
            <Progress
              value={((progress.index + progress.fraction) / progress.total) * 100}
              aria-label={uploadingText}
              animated
            />
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={isBusy}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={isBusy} data-testid="record-save">
            {tc('actions.save')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        isOpen={removing !== null}
        title={`${t('records.files.remove')} ${removing?.name ?? ''}?`}
        text={t('records.willBeDeleted', { name: removing?.name ?? '' })}
        confirmLabel={t('records.files.remove')}
        confirmColor="red"
        isPending={removeFile.isPending}
        error={removeFile.error}
        errorTestId="record-file-remove-error"
        onConfirm={() => {
          if (removing !== null && !removeFile.isPending) removeFile.mutate(removing);
        }}
        onClose={() => {
          setRemoving(null);
        }}
      />
    </form>
  );
}

/**
 * Add or edit a medical record (spec §3 Medical record, §2 add and edit) in a dialog: its fields,
 * checked with the contract's schema, and its attachments. Saving writes the record, then sends
 * each new file, saying which of how many is on its way; a file that fails is named with the
 * reason and the record stays saved. Removing a file already on the record asks first.
 */
export function RecordFormDialog({
  patientId,
  mode,
  onClose,
}: {
  patientId: string;
  mode: RecordFormMode | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const [isPending, setPending] = useState(false);
  // A new record saved while some of its files failed: the dialog goes on editing it.
  const [saved, setSaved] = useState<{ mode: RecordFormMode; record: MedicalRecord } | null>(null);
  const record =
    saved !== null && saved.mode === mode ? saved.record : mode?.kind === 'edit' ? mode.record : null;
  const close = () => {
    if (!isPending) onClose();
  };
  return (
    <Modal
      opened={mode !== null}
      onClose={close}
      title={record === null ? t('records.list.new') : `${tc('actions.edit')}: ${record.title}`}
      size="lg"
      closeOnClickOutside={!isPending}
      closeOnEscape={!isPending}
      closeButtonProps={{ 'aria-label': tc('actions.cancel'), disabled: isPending }}
    >
      {mode === null ? null : (
        <RecordForm
          key={mode.kind === 'edit' ? mode.record.id : 'new'}
          patientId={patientId}
          mode={mode}
          onClose={onClose}
          onPendingChange={setPending}
          onSaved={(next) => {
            setSaved({ mode, record: next });
          }}
        />
      )}
    </Modal>
  );
}
