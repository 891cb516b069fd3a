import { useState, type ReactNode } from 'react';
import { Box, Button, Drawer, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MedicalRecord, PatientFile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDateTime, formatNumber, toDisplayDate } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { downloadFile } from '../imports/imports-api';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import {
  deleteMedicalRecord,
  medicalRecordDetailQuery,
  recordFilePath,
  refreshMedicalRecords,
} from './medical-records-api';
import { fileKindOf } from './record-form-values';
import { RecordTypeBadge } from './record-type-badge';
import { useFileBlob } from './use-file-blob';

function Field({ label, children, span }: { label: string; children: ReactNode; span?: boolean }) {
  return (
    <Stack gap={2} style={span === true ? { gridColumn: '1 / -1' } : undefined}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Saves an attachment as the browser's download. */
function download(path: string, name: string): void {
  downloadFile(path, name).catch((error: unknown) => {
    notifyError(error);
  });
}

/**
 * One attachment shown in the console: an image inline, a PDF in the browser's own viewer (an
 * iframe on a blob: URL, fetched with the session's cookies: the API's answers may not be framed).
 */
function AttachmentViewer({ path, file }: { path: string; file: PatientFile }) {
  const [attempt, setAttempt] = useState(0);
  const blob = useFileBlob(path, file.contentType, attempt);
  return (
    <Paper withBorder radius="md" p="xs" data-testid="attachment-viewer" data-file-id={file.id}>
      {blob.status === 'loading' ? <LoadingState /> : null}
      {blob.status === 'error' ? (
        <ErrorState
          error={blob.error}
          title={file.name}
          onRetry={() => {
            setAttempt((count) => count + 1);
          }}
        />
      ) : null}
      {blob.status === 'ready' && blob.type === 'application/pdf' ? (
        <iframe
          src={blob.url}
          title={file.name}
          data-testid="pdf-viewer"
          style={{ display: 'block', width: '100%', height: 620, border: 0 }}
        />
      ) : null}
      {blob.status === 'ready' && blob.type !== 'application/pdf' ? (
        // At its own size, never enlarged; shrunk to the drawer's width and a screen's height.
        <Image
          src={blob.url}
          alt={file.name}
          fit="contain"
          w="auto"
          maw="100%"
          mah={620}
          mx="auto"
          data-testid="image-viewer"
        />
      ) : null}
    </Paper>
  );
}

function Attachments({ patientId, record }: { patientId: string; record: MedicalRecord }) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const [shownId, setShownId] = useState<string | null>(record.files[0]?.id ?? null);
  const shown = record.files.find((file) => file.id === shownId) ?? null;
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        {`${t('records.fields.files')} (${formatNumber(record.files.length)})`}
      </Title>
      {record.files.length === 0 ? null : (
        <Stack
          gap={6}
          component="ul"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={t('records.fields.files')}
        >
          {record.files.map((file) => {
            const path = recordFilePath(patientId, record.id, file.id);
            const isShown = file.id === shownId;
            return (
              <Box component="li" key={file.id} data-testid="attachment">
                <Paper
                  withBorder
                  radius="sm"
                  px="sm"
                  py={6}
                  // The one shown has the accent border (its View button is pressed), text stays on white.
                  style={isShown ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
                >
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text fz="sm" fw={600} truncate="end" title={file.name} data-testid="attachment-name">
                        {file.name}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {[
                          fileKindOf(file.contentType),
                          formatBytes(file.size),
                          formatDateTime(file.uploadedAt),
                        ].join(' · ')}
                      </Text>
                    </Stack>
                    <Group gap={6} wrap="nowrap">
                      <Button
                        size="xs"
                        variant={isShown ? 'filled' : 'light'}
                        aria-pressed={isShown}
                        aria-label={`${tc('actions.view')} ${file.name}`}
                        onClick={() => {
                          setShownId(file.id);
                        }}
                      >
                        {tc('actions.view')}
                      </Button>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`${t('records.detail.download')} ${file.name}`}
                        onClick={() => {
                          download(path, file.name);
                        }}
                      >
                        {t('records.detail.download')}
                      </Button>
                    </Group>
                  </Group>
                </Paper>
              </Box>
            );
          })}
        </Stack>
      )}
      {shown === null ? null : (
        <AttachmentViewer key={shown.id} path={recordFilePath(patientId, record.id, shown.id)} file={shown} />
      )}
    </Stack>
  );
}

function RecordDetailBody({
  patientId,
  record,
  onEdit,
  onDeleted,
}: {
  patientId: string;
  record: MedicalRecord;
  onEdit: (record: MedicalRecord) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteMedicalRecord(patientId, record.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('records.detail.deleted', { title: record.title }));
      refreshMedicalRecords(queryClient);
      setConfirming(false);
      onDeleted();
    },
  });
  const none = t('profile.none');
  return (
    <Stack gap="lg" data-testid="record-detail">
      <Group justify="space-between" align="center">
        <RecordTypeBadge type={record.type} />
        <Can permission="user.update">
          <Group gap="sm">
            <Button
              variant="light"
              onClick={() => {
                onEdit(record);
              }}
            >
              {tc('actions.edit')}
            </Button>
            <Button
              color="red"
              variant="outline"
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              {tc('actions.delete')}
            </Button>
          </Group>
        </Can>
      </Group>
      <SimpleGrid cols={2} spacing="lg" verticalSpacing="md">
        <Field label={t('records.fields.examinationDate')}>
          <span data-testid="record-examination-date">{toDisplayDate(record.examinationDate)}</span>
        </Field>
        <Field label={t('records.fields.place')}>{record.place ?? none}</Field>
        <Field label={t('records.fields.doctor')}>{record.doctor ?? none}</Field>
        <Field label={t('records.fields.addedBy')}>
          <span data-testid="record-added-by">
            {`${record.createdBy?.fullName ?? none}, ${formatDateTime(record.createdAt)}`}
          </span>
        </Field>
        <Field label={t('records.fields.note')} span>
          {record.note ?? none}
        </Field>
      </SimpleGrid>
      <Attachments key={record.files.map((file) => file.id).join()} patientId={patientId} record={record} />
      <ConfirmDialog
        isOpen={isConfirming}
        title={`${tc('actions.delete')} “${record.title}”?`}
        text={t('records.willBeDeleted', { name: `“${record.title}”` })}
        confirmLabel={tc('actions.delete')}
        confirmColor="red"
        isPending={remove.isPending}
        error={remove.error}
        errorTestId="record-delete-error"
        onConfirm={() => {
          if (!remove.isPending) remove.mutate();
        }}
        onClose={() => {
          setConfirming(false);
        }}
      />
    </Stack>
  );
}

/**
 * One medical record in a drawer (spec §2 detail): its fields, who added it and when, and its
 * attachments, each viewable in the console (images inline, PDFs in the browser's viewer) and
 * downloadable. Holders of user.update edit it or delete it (with its files) after confirming.
 */
export function RecordDetailDrawer({
  patientId,
  recordId,
  onClose,
  onEdit,
}: {
  patientId: string;
  recordId: string | null;
  onClose: () => void;
  onEdit: (record: MedicalRecord) => void;
}) {
  const { t } = useTranslation('patients');
  const { t: tc } = useTranslation();
  const detail = useQuery({
    ...medicalRecordDetailQuery(patientId, recordId ?? ''),
    enabled: recordId !== null,
  });
  const title = detail.isSuccess && recordId !== null ? detail.data.title : t('records.title');
  return (
    <Drawer
      opened={recordId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text component="span" fz="lg" fw={700} data-testid="record-detail-title">
          {title}
        </Text>
      }
      closeButtonProps={{ 'aria-label': tc('actions.back') }}
    >
      {recordId === null ? null : (
        <>
          {detail.isPending ? <LoadingState /> : null}
          {detail.isError ? (
            <ErrorState
              error={detail.error}
              title={t('records.title')}
              onRetry={() => void detail.refetch()}
            />
          ) : null}
          {detail.isSuccess ? (
            <RecordDetailBody
              patientId={patientId}
              record={detail.data}
              onEdit={onEdit}
              onDeleted={onClose}
            />
          ) : null}
        </>
      )}
    </Drawer>
  );
}
