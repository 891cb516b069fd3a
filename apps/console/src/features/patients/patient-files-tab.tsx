import { useRef } from 'react';
import { ActionIcon, Button, FileButton, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PATIENT_FILE_MAX_BYTES, type PatientFile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { downloadFile } from '../imports/imports-api';
import { CrossIcon, UploadIcon } from '../shell/icons';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import {
  deletePatientFile,
  patientFilePath,
  patientFilesQuery,
  refreshPatients,
  uploadPatientFile,
} from './patients-api';

/** The size in KB or MB, as a number to put in the translated text. */
function sizeParts(size: number): { key: 'files.sizeMb' | 'files.sizeKb'; value: string } {
  return size >= 1024 * 1024
    ? { key: 'files.sizeMb', value: formatNumber(size / 1024 / 1024, 1) }
    : { key: 'files.sizeKb', value: String(Math.max(1, Math.round(size / 1024))) };
}

/** Attached files (spec §3): upload (jpg, png, pdf up to 10 MB), list, download, delete. */
export function PatientFilesTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patients');
  const queryClient = useQueryClient();
  const files = useQuery(patientFilesQuery(patientId));
  const resetRef = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: (file: File) => uploadPatientFile(patientId, file),
    onSuccess: (saved) => {
      notifySuccess(t('files.uploaded', { name: saved.name }));
      refreshPatients(queryClient);
    },
    onError: (error) => {
      notifyError(error);
    },
    onSettled: () => {
      resetRef.current?.();
    },
  });
  const remove = useMutation({
    mutationFn: (file: PatientFile) => deletePatientFile(patientId, file.id).then(() => file),
    onSuccess: (file) => {
      notifySuccess(t('files.deleted', { name: file.name }));
      refreshPatients(queryClient);
    },
    onError: (error) => {
      notifyError(error);
    },
  });

  return (
    <Stack gap="md">
      <Can permission="user.update">
        <Group gap="sm">
          <FileButton
            resetRef={resetRef}
            accept="image/png,image/jpeg,application/pdf"
            onChange={(file) => {
              if (file === null) return;
              if (file.size > PATIENT_FILE_MAX_BYTES) {
                notifyError(new Error('too large'), 'errors:file.tooLarge');
                resetRef.current?.();
                return;
              }
              upload.mutate(file);
            }}
          >
            {(props) => (
              <Button {...props} leftSection={<UploadIcon />} loading={upload.isPending}>
                {t('files.upload')}
              </Button>
            )}
          </FileButton>
          <Text fz="sm" c="dimmed">
            {t('files.uploadHint')}
          </Text>
        </Group>
      </Can>
      {files.isPending ? <LoadingState /> : null}
      {files.isError ? (
        <ErrorState error={files.error} title={t('files.loadError')} onRetry={() => void files.refetch()} />
      ) : null}
      {files.isSuccess && files.data.length === 0 ? <EmptyList title={t('files.empty')} /> : null}
      {files.isSuccess && files.data.length > 0 ? (
        <Table verticalSpacing="sm" aria-label={t('profile.tabs.files')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('files.name')}</Table.Th>
              <Table.Th>{t('files.type')}</Table.Th>
              <Table.Th>{t('files.size')}</Table.Th>
              <Table.Th>{t('files.uploadedBy')}</Table.Th>
              <Table.Th>{t('files.uploadedAt')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.data.map((file) => (
              <Table.Tr key={file.id}>
                <Table.Td>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    aria-label={t('files.download', { name: file.name })}
                    onClick={() => {
                      downloadFile(patientFilePath(patientId, file.id), file.name).catch((error: unknown) => {
                        notifyError(error);
                      });
                    }}
                  >
                    {file.name}
                  </Button>
                </Table.Td>
                <Table.Td>
                  {file.contentType === 'application/pdf'
                    ? 'PDF'
                    : file.contentType === 'image/png'
                      ? 'PNG'
                      : 'JPG'}
                </Table.Td>
                <Table.Td>{t(sizeParts(file.size).key, { value: sizeParts(file.size).value })}</Table.Td>
                <Table.Td>{file.uploadedBy?.fullName ?? ''}</Table.Td>
                <Table.Td>{formatDateTime(file.uploadedAt)}</Table.Td>
                <Table.Td>
                  <Can permission="user.update">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('files.delete', { name: file.name })}
                      loading={remove.isPending && remove.variables.id === file.id}
                      onClick={() => {
                        if (window.confirm(t('files.deleteConfirm', { name: file.name })))
                          remove.mutate(file);
                      }}
                    >
                      <CrossIcon />
                    </ActionIcon>
                  </Can>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
