import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CODE_STATES, type ActivationCode, type CodePackage } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { formatDateTime, formatNumber } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DataTable } from '../shell/data-table';
import { ExportButton } from '../shell/data-table-export';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { InfoTile } from '../shell/info-tile';
import { usePagedList } from '../shell/paged-list';
import { usePermissions } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { CodeStateBadge, dayText } from './code-package-parts';
import {
  activationCodeListQuery,
  codePackageQuery,
  exportCodeList,
  markCodePackagePaid,
  refreshCodePackages,
  setCodeLocked,
  type ActivationCodeFilter,
} from './code-packages-api';

/** One labelled field of the batch. */
function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * One code package (spec §2 code list with export; §3 Code package; §4 code states): its fields,
 * its codes counted per state, and the code list (series, state, purchase and activated dates, who
 * activated it), paged, filtered by state and searched by series. Holders of transaction.manage
 * mark the batch paid and lock or unlock a code, each after a confirmation; holders of
 * transaction.export download the code list (never the secret codes).
 */
export function CodePackageDetailPage() {
  const { t } = useTranslation('packages');
  const { codePackageId = '' } = useParams();
  const batch = useQuery(codePackageQuery(codePackageId));
  usePageTitle(batch.data?.name ?? t('codes.title'));
  return (
    <Stack gap="lg" maw={1280}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        {t('codes.actions.back')}
      </Anchor>
      {batch.isPending ? <LoadingState /> : null}
      {batch.isError ? (
        isApiError(batch.error) && batch.error.code === 'codePackage.notFound' ? (
          <Alert color="orange" variant="light" role="alert">
            {t('codes.detail.notFound')}
          </Alert>
        ) : (
          <ErrorState error={batch.error} title={t('codes.detail.loadFailed')} onRetry={() => void batch.refetch()} />
        )
      ) : null}
      {batch.isSuccess ? <CodePackageView batch={batch.data} /> : null}
    </Stack>
  );
}

type CodeAction = { kind: 'markPaid' } | { kind: 'lock' | 'unlock'; code: ActivationCode };

function CodePackageView({ batch }: { batch: CodePackage }) {
  const { t } = useTranslation('packages');
  const { can } = usePermissions();
  const canManage = can('transaction.manage');
  const queryClient = useQueryClient();
  const [action, setAction] = useState<CodeAction | null>(null);
  const paged = usePagedList<'series', Omit<ActivationCodeFilter, 'search'> & { sortField: 'series'; sortType: 'asc' }>({
    page: 0,
    size: 20,
    sortField: 'series',
    sortType: 'asc',
    state: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const codes = useQuery(
    activationCodeListQuery(batch.id, { page: filter.page, size: filter.size, state: filter.state, search: debouncedSearch }),
  );
  const change = useMutation({
    mutationFn: (chosen: CodeAction) =>
      chosen.kind === 'markPaid' ? markCodePackagePaid(batch.id) : setCodeLocked(chosen.code.id, chosen.kind === 'lock'),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (saved, chosen) => {
      notifySuccess(
        chosen.kind === 'markPaid'
          ? t('codes.paid.done', { name: saved.name })
          : t(chosen.kind === 'lock' ? 'codes.lock.done' : 'codes.unlock.done', { series: chosen.code.series }),
      );
      queryClient.setQueryData(codePackageQuery(batch.id).queryKey, saved);
      await refreshCodePackages(queryClient);
      setAction(null);
    },
  });
  const ask = (next: CodeAction) => {
    change.reset();
    setAction(next);
  };
  const unpaid = batch.counts.NOT_PAID;

  const columns: Column<ActivationCode, 'series'>[] = [
    { id: 'series', header: t('codes.detail.columns.series'), isMonospace: true, isNoWrap: true, cell: (code) => code.series },
    { id: 'state', header: t('codes.detail.columns.state'), isNoWrap: true, cell: (code) => <CodeStateBadge state={code.state} /> },
    {
      id: 'purchasedAt',
      header: t('codes.detail.columns.purchasedAt'),
      isNoWrap: true,
      cell: (code) => (code.purchasedAt === null ? t('none') : formatDateTime(code.purchasedAt)),
    },
    {
      id: 'activatedAt',
      header: t('codes.detail.columns.activatedAt'),
      isNoWrap: true,
      cell: (code) => (code.activatedAt === null ? t('none') : formatDateTime(code.activatedAt)),
    },
    {
      id: 'activatedBy',
      header: t('codes.detail.columns.activatedBy'),
      cell: (code) => (code.activatedBy === null ? t('none') : code.activatedBy.fullName),
    },
    ...(canManage
      ? [
          {
            id: 'actions',
            header: t('codes.detail.columns.actions'),
            isHeaderHidden: true,
            isNoWrap: true,
            align: 'right',
            cell: (code: ActivationCode) =>
              code.state === 'USED' ? null : code.state === 'LOCKED' ? (
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => {
                    ask({ kind: 'unlock', code });
                  }}
                  aria-label={`${t('codes.actions.unlock')} ${code.series}`}
                >
                  {t('codes.actions.unlock')}
                </Button>
              ) : (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => {
                    ask({ kind: 'lock', code });
                  }}
                  aria-label={`${t('codes.actions.lock')} ${code.series}`}
                >
                  {t('codes.actions.lock')}
                </Button>
              ),
          } satisfies Column<ActivationCode, 'series'>,
        ]
      : []),
  ];

  const confirmTexts =
    action === null
      ? { title: '', text: '', label: '' }
      : action.kind === 'markPaid'
        ? {
            title: t('codes.paid.title', { name: batch.name }),
            text: t('codes.paid.text', { count: unpaid }),
            label: t('codes.actions.markPaid'),
          }
        : {
            title: t(`codes.${action.kind}.title`, { series: action.code.series }),
            text: t(`codes.${action.kind}.text`),
            label: t(`codes.actions.${action.kind}`),
          };

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {batch.name}
          </Title>
          <Text c="dimmed" fz="sm" ff="monospace">
            {batch.prefix}
          </Text>
        </Stack>
        <Group gap="sm">
          {can('transaction.export') ? (
            <ExportButton
              label={t('codes.actions.export')}
              download={() => exportCodeList(batch.id, batch.prefix)}
              failureMessageKey="packages:codes.detail.exportFailed"
            />
          ) : null}
          {canManage ? (
            <Button
              onClick={() => {
                ask({ kind: 'markPaid' });
              }}
              disabled={unpaid === 0}
              title={unpaid === 0 ? t('codes.paid.nothing') : undefined}
            >
              {t('codes.actions.markPaid')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} data-testid="code-package-counts">
        {CODE_STATES.map((state) => (
          <InfoTile
            key={state}
            label={t(`codes.states.${state}`)}
            value={formatNumber(batch.counts[state])}
            testId={`code-count-${state}`}
          />
        ))}
      </SimpleGrid>
      <Paper withBorder radius="md" p="md" data-testid="code-package-fields">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" verticalSpacing="md">
          <Field label={t('codes.detail.type')}>{t(`kind.${batch.type}`)}</Field>
          <Field label={t('codes.detail.package')}>
            {batch.package.name} ({batch.package.code})
          </Field>
          <Field label={t('codes.detail.recipientOrganization')}>{batch.recipientOrganization}</Field>
          <Field label={t('codes.detail.totalCodes')}>{formatNumber(batch.totalCodes)}</Field>
          <Field label={t('codes.detail.availableFrom')}>{dayText(batch.availableFrom)}</Field>
          <Field label={t('codes.detail.expiresOn')}>{dayText(batch.expiresOn)}</Field>
          <Field label={t('codes.detail.purpose')}>{batch.purpose}</Field>
          <Field label={t('codes.detail.benefit')}>{batch.benefit}</Field>
          <Field label={t('codes.detail.created')}>{formatDateTime(batch.createdAt)}</Field>
        </SimpleGrid>
      </Paper>
      <Title order={2} fz={20}>
        {t('codes.detail.codes')}
      </Title>
      <Group gap="sm" align="flex-end">
        <ListSearchField
          list={paged}
          label={t('codes.detail.seriesSearch')}
          placeholder={t('codes.detail.seriesPlaceholder')}
          width={220}
        />
        <ValueFilter
          values={CODE_STATES}
          labelOf={(state) => t(`codes.states.${state}`)}
          value={filter.state}
          onChange={(state) => {
            update({ state });
          }}
          label={t('codes.detail.stateFilter')}
          placeholder={t('any')}
          width={190}
        />
      </Group>
      <DataTable
        columns={columns}
        query={codes}
        list={paged}
        label={t('codes.detail.codes')}
        testId="activation-codes-table"
        isFiltered={debouncedSearch !== '' || filter.state !== null}
        texts={{
          loadFailed: t('codes.detail.list.loadFailed'),
          emptyTitle: t('codes.detail.list.emptyTitle'),
          noMatchTitle: t('codes.detail.list.noMatchTitle'),
          noMatchHint: t('codes.detail.list.noMatchHint'),
        }}
      />
      <ConfirmDialog
        isOpen={action !== null}
        title={confirmTexts.title}
        text={confirmTexts.text}
        confirmLabel={confirmTexts.label}
        confirmColor={action?.kind === 'lock' ? 'red' : undefined}
        isPending={change.isPending}
        error={change.error}
        onConfirm={() => {
          if (action !== null) change.mutate(action);
        }}
        onClose={() => {
          setAction(null);
        }}
      />
    </>
  );
}
