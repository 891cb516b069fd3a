import { useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { checkImportFile, type ImportJob, type ImportKindCode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatBytes, formatDateTime, formatNumber } from '../../lib/format';
import { messageText, notifyError } from '../../lib/notify';
import { useOrgReach } from '../levels/use-org-reach';
import { ErrorState, LoadingState } from '../shell/query-states';
import { AlertIcon, CheckIcon, UploadIcon } from '../shell/icons';
import {
  currentImportQuery,
  downloadFile,
  errorFilePath,
  IMPORTS_QUERY_ROOT,
  isActiveImport,
  templatePath,
  uploadImport,
} from './imports-api';
import { IMPORT_STATUS_COLORS, importResultOf } from './import-status';

const TEMPLATE_NAMES: Record<ImportKindCode, string> = {
  PATIENT: 'patient-import-template.xlsx',
  DEVICE: 'device-import-template.xlsx',
};

/** Downloads an error file, with its failure as a toast. */
export function downloadErrorFile(job: ImportJob): void {
  downloadFile(errorFilePath(job.id), `${job.fileName.replace(/\.xlsx$/i, '')}-errors.xlsx`).catch(
    (error: unknown) => {
      notifyError(error, 'imports:job.errorFileFailed');
    },
  );
}

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId}>
        {formatNumber(value)}
      </Text>
    </Stack>
  );
}

/** A finished job's result: every row stored (green), some (orange) or none (red), and why. */
function JobResult({ job }: { job: ImportJob }) {
  const { t } = useTranslation('imports');
  const result = importResultOf(job);
  if (result === null) return null;
  const isError = result.tone === 'error';
  return (
    <Alert
      color={result.color}
      variant="light"
      icon={result.tone === 'success' ? <CheckIcon /> : <AlertIcon />}
      role={isError ? 'alert' : 'status'}
      title={t(`status.${job.status}`)}
      data-testid="import-result"
    >
      {result.failureCode === null ? null : (
        <Text fz="sm">{messageText({ key: `errors:${result.failureCode}` })}</Text>
      )}
      {result.lines.map((line) => (
        <Text fz="sm" key={line.key}>
          {t(line.key, {
            replace: Object.fromEntries(
              Object.entries(line.values).map(([name, value]) => [name, formatNumber(value)]),
            ),
          })}
        </Text>
      ))}
    </Alert>
  );
}

/** The current or last job of a kind: progress while it runs, then its result and error file. */
function JobCard({ job }: { job: ImportJob }) {
  const { t } = useTranslation('imports');
  const isActive = isActiveImport(job);
  const percent = job.fileSize > 0 ? Math.min(100, Math.round((job.bytesRead / job.fileSize) * 100)) : 0;
  return (
    <Stack gap="sm" data-testid="import-job" data-status={job.status}>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={3} fz="md">
            {t(isActive ? 'job.currentTitle' : 'job.lastTitle')}
          </Title>
          <Text fz="sm">{t('job.file', { name: job.fileName, size: formatBytes(job.fileSize) })}</Text>
          <Text fz="xs" c="dimmed">
            {t('job.startedBy', { name: job.createdBy?.fullName ?? '', date: formatDateTime(job.createdAt) })}
          </Text>
        </Stack>
        <Badge color={IMPORT_STATUS_COLORS[job.status]} variant="light" data-testid="import-status">
          {t(`status.${job.status}`)}
        </Badge>
      </Group>
      {isActive ? (
        <Stack gap={4}>
          <Text fz="sm" role="status" aria-live="polite">
            {job.status === 'QUEUED' ? t('job.queued') : t('job.processing')}
          </Text>
          <Progress value={percent} animated striped aria-label={t('job.processingProgress')} size="lg" />
        </Stack>
      ) : null}
      <SimpleGrid cols={3} maw={520}>
        <Count label={t('job.rowsProcessed')} value={job.rowsProcessed} testId="rows-processed" />
        <Count label={t('job.rowsStored')} value={job.rowsStored} testId="rows-stored" />
        <Count label={t('job.rowsFailed')} value={job.rowsFailed} testId="rows-failed" />
      </SimpleGrid>
      <JobResult job={job} />
      {job.hasErrorFile ? (
        <Group>
          <Button
            variant="light"
            onClick={() => {
              downloadErrorFile(job);
            }}
          >
            {t('job.downloadErrors')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * One kind's import: the template, the file picker with the client-side checks (.xlsx, not empty,
 * at most 500 MB; the server checks again, by content), the upload with its progress, then the
 * job's processing progress (polled every second) and result. After a reload the current or last
 * job is shown again.
 */
export function ImportPanel({ kind }: { kind: ImportKindCode }) {
  const { t } = useTranslation('imports');
  const queryClient = useQueryClient();
  const current = useQuery(currentImportQuery(kind));
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | undefined>(undefined);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const [uploaded, setUploaded] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);
  const { centers } = useOrgReach();
  const [chosenCenter, setChosenCenter] = useState<string | null | undefined>(undefined);
  // A caller with one health center has it chosen; anyone may clear it (rows then need their own).
  const defaultCenter =
    chosenCenter === undefined ? (centers.length === 1 ? (centers[0]?.id ?? null) : null) : chosenCenter;
  const isUploading = uploaded !== null;
  const isBusy = isActiveImport(current.data);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setUploadError(null);
    const problem = chosen === null ? null : checkImportFile(chosen);
    setFileProblem(problem === null ? undefined : t(`fileProblems.${problem}`));
  };

  const start = async () => {
    if (file === null || fileProblem !== undefined) return;
    const controller = new AbortController();
    abort.current = controller;
    setUploadError(null);
    setUploaded(0);
    try {
      const job = await uploadImport(kind, file, setUploaded, controller.signal, {
        defaultHealthCenterId: kind === 'PATIENT' ? defaultCenter : null,
      });
      queryClient.setQueryData(currentImportQuery(kind).queryKey, job);
      void queryClient.invalidateQueries({ queryKey: IMPORTS_QUERY_ROOT });
      setFile(null);
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) setUploadError(error);
    } finally {
      setUploaded(null);
      abort.current = null;
    }
  };

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Title order={2} fz="lg">
            {t('upload.title')}
          </Title>
          <Text fz="sm" c="dimmed">
            {t('upload.steps', { item: t(`upload.item.${kind}`) })}
          </Text>
          <Group>
            <Button
              variant="default"
              onClick={() => {
                downloadFile(templatePath(kind), TEMPLATE_NAMES[kind]).catch((error: unknown) => {
                  notifyError(error, 'imports:upload.templateFailed');
                });
              }}
            >
              {t('upload.downloadTemplate')}
            </Button>
          </Group>
          <FileInput
            label={t('upload.fileLabel')}
            description={t('upload.fileDescription')}
            placeholder={t('upload.filePlaceholder')}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<UploadIcon width={16} height={16} />}
            value={file}
            onChange={choose}
            error={fileProblem}
            disabled={isUploading}
            clearable
          />
          {kind === 'PATIENT' ? (
            <Select
              label={t('upload.defaultCenter')}
              description={t('upload.defaultCenterDescription')}
              placeholder={t('upload.defaultCenterPlaceholder')}
              data={centers.map((center) => ({ value: center.id, label: center.name }))}
              value={defaultCenter}
              onChange={setChosenCenter}
              disabled={isUploading}
              clearable
              searchable
              data-testid="import-default-center"
            />
          ) : null}
          {isBusy && !isUploading ? (
            <Text fz="sm" c="dimmed">
              {t('upload.busy')}
            </Text>
          ) : null}
          {isUploading ? (
            <Stack gap={4}>
              <Text fz="sm" role="status" aria-live="polite">
                {t('upload.uploading', { name: file?.name ?? '' })}
              </Text>
              <Progress
                value={Math.round(uploaded * 100)}
                aria-label={t('upload.uploadProgress')}
                size="lg"
              />
              <Group>
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => {
                    abort.current?.abort();
                  }}
                >
                  {t('upload.cancel')}
                </Button>
              </Group>
            </Stack>
          ) : null}
          {uploadError === null ? null : (
            <Alert color="red" variant="light" role="alert" icon={<AlertIcon />} title={t('upload.failed')}>
              {messageText(errorMessageFor(uploadError))}
            </Alert>
          )}
          <Group>
            <Button
              onClick={() => void start()}
              disabled={file === null || fileProblem !== undefined || isUploading || isBusy}
              loading={isUploading}
            >
              {t('upload.start')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        {current.isPending ? <LoadingState /> : null}
        {current.isError ? (
          <ErrorState
            error={current.error}
            title={t('job.loadFailed')}
            onRetry={() => void current.refetch()}
          />
        ) : null}
        {current.isSuccess && current.data === null ? (
          <Text c="dimmed" fz="sm">
            {t('job.none')}
          </Text>
        ) : null}
        {current.isSuccess && current.data !== null ? <JobCard job={current.data} /> : null}
      </Paper>
    </SimpleGrid>
  );
}
