import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Modal, NumberInput, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ALERT_LEVELS,
  THRESHOLD_METRICS,
  thresholdProblems,
  type AlertLevel,
  type ThresholdMetric,
  type ThresholdSet,
  type ThresholdsView,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldMessageText, serverFieldMessages } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { refreshHealth, resetThresholds, saveThresholds, thresholdsQuery } from './health-api';
import { LEVEL_COLORS, unitLabel } from './chart-data';
import {
  thresholdDecimals,
  thresholdUnitsOf,
  toCanonicalSet,
  toDisplaySet,
  type ThresholdUnits,
} from './threshold-units';

type Side = 'lower' | 'upper';
/** The form holds numbers in the tenant's units (°F, mmol/L…); an emptied input is null (no bound). */
type Draft = ThresholdSet;

const pathOf = (metric: ThresholdMetric, level: AlertLevel, side: Side) => `${metric}.${level}.${side}`;

function copySet(set: ThresholdSet): Draft {
  return structuredClone(set);
}

function ThresholdsForm({
  patientId,
  view,
  canEdit,
  units,
}: {
  patientId: string;
  view: ThresholdsView;
  canEdit: boolean;
  units: ThresholdUnits;
}) {
  const { t } = useTranslation('health');
  const queryClient = useQueryClient();
  const shown = useMemo(() => toDisplaySet(view.thresholds, units), [view.thresholds, units]);
  const [draft, setDraft] = useState<Draft>(() => copySet(shown));
  const [isChecked, setIsChecked] = useState(false);
  const [isConfirmingReset, setIsConfirmingReset] = useState(false);
  // The rules (and the server) judge canonical values: the draft is converted back first.
  const canonical = useMemo(
    () => toCanonicalSet(draft, view.thresholds, units),
    [draft, view.thresholds, units],
  );
  const problems = useMemo(() => new Set(thresholdProblems(canonical)), [canonical]);
  const custom = new Set(view.custom);

  const onSaved = (next: ThresholdsView, message: string) => {
    queryClient.setQueryData(thresholdsQuery(patientId).queryKey, next);
    refreshHealth(queryClient, patientId);
    notifySuccess(message);
  };
  const save = useMutation({
    mutationFn: (thresholds: ThresholdSet) => saveThresholds(patientId, thresholds),
    meta: { errorDisplay: 'inline' },
    onSuccess: (next) => {
      setDraft(toDisplaySet(next.thresholds, units));
      setIsChecked(false);
      onSaved(next, t('thresholds.saved'));
    },
  });
  const reset = useMutation({
    mutationFn: () => resetThresholds(patientId),
    meta: { errorDisplay: 'inline' },
    onSuccess: (next) => {
      setDraft(toDisplaySet(next.thresholds, units));
      setIsConfirmingReset(false);
      setIsChecked(false);
      onSaved(next, t('thresholds.resetDone'));
    },
  });
  const serverMessages = serverFieldMessages(save.error, {});
  const messageFor = (path: string): string | undefined => {
    if (isChecked && problems.has(path)) return t('thresholds.invalidBound');
    const server = serverMessages[`thresholds.${path}`] ?? serverMessages[path];
    return fieldMessageText(server);
  };
  const isDirty = JSON.stringify(draft) !== JSON.stringify(shown);

  const setBound = (metric: ThresholdMetric, level: AlertLevel, side: Side, value: string | number) => {
    setDraft((current) => {
      const next = copySet(current);
      next[metric][level][side] = typeof value === 'number' && Number.isFinite(value) ? value : null;
      return next;
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setIsChecked(true);
        if (problems.size > 0) return;
        save.mutate(canonical);
      }}
    >
      <Stack gap="md">
        <Group justify="space-between">
          <Text fz="sm" c="dimmed">
            {view.updatedAt === null
              ? t('thresholds.defaultsInUse')
              : t('thresholds.updatedAt', { time: formatDateTime(view.updatedAt) })}
          </Text>
          {canEdit ? null : (
            <Text fz="sm" c="dimmed">
              {t('thresholds.readOnly')}
            </Text>
          )}
        </Group>
        {isChecked && problems.size > 0 ? (
          <Alert color="red" variant="light" role="alert">
            {t('thresholds.fixProblems', { count: problems.size })}
          </Alert>
        ) : null}
        {save.isError && Object.keys(serverMessages).length === 0 ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : null}
        {reset.isError ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(reset.error, 'health:thresholds.resetFailed'))}
          </Alert>
        ) : null}
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing={4} data-testid="thresholds-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('thresholds.metric')}</Table.Th>
                <Table.Th>{t('thresholds.level')}</Table.Th>
                <Table.Th>{t('thresholds.lower')}</Table.Th>
                <Table.Th>{t('thresholds.upper')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {THRESHOLD_METRICS.flatMap((metric) =>
                ALERT_LEVELS.map((level, levelIndex) => {
                  const metricLabel = t(`measures.${metric}`);
                  const levelLabel = t(`status.${level}`);
                  return (
                    <Table.Tr key={`${metric}.${level}`} data-testid={`threshold-${metric}-${level}`}>
                      <Table.Td>
                        {levelIndex === 0 ? (
                          <Text fz="sm" fw={600}>
                            {metricLabel}{' '}
                            <Text span fz="xs" c="dimmed">
                              ({unitLabel(units[metric])})
                            </Text>
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={LEVEL_COLORS[level]} variant="light" tt="none" autoContrast>
                          {levelLabel}
                        </Badge>
                      </Table.Td>
                      {(['lower', 'upper'] as const).map((side) => (
                        <Table.Td key={side}>
                          <NumberInput
                            size="xs"
                            w={130}
                            decimalScale={thresholdDecimals(units[metric])}
                            hideControls
                            disabled={!canEdit}
                            aria-label={t('thresholds.boundAria', {
                              metric: metricLabel,
                              level: levelLabel,
                              side: t(`thresholds.${side}`),
                            })}
                            placeholder={t('thresholds.noBound')}
                            value={draft[metric][level][side] ?? ''}
                            onChange={(value) => {
                              setBound(metric, level, side, value);
                            }}
                            error={messageFor(pathOf(metric, level, side))}
                          />
                        </Table.Td>
                      ))}
                      <Table.Td>
                        {custom.has(`${metric}.${level}`) ? (
                          <Badge color="grape" variant="outline" tt="none" data-testid="custom-marker">
                            {t('thresholds.custom')}
                          </Badge>
                        ) : null}
                      </Table.Td>
                    </Table.Tr>
                  );
                }),
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {canEdit ? (
          <Group justify="flex-end">
            <Button
              variant="default"
              color="red"
              disabled={view.custom.length === 0}
              onClick={() => {
                setIsConfirmingReset(true);
              }}
            >
              {t('thresholds.reset')}
            </Button>
            <Button
              variant="default"
              disabled={!isDirty}
              onClick={() => {
                setDraft(copySet(shown));
                setIsChecked(false);
                save.reset();
              }}
            >
              {t('thresholds.discard')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              {t('thresholds.save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <Modal
        opened={isConfirmingReset}
        onClose={() => {
          setIsConfirmingReset(false);
        }}
        title={t('thresholds.resetTitle')}
      >
        <Stack gap="md">
          <Text fz="sm">{t('thresholds.resetConfirm')}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setIsConfirmingReset(false);
              }}
            >
              {t('thresholds.cancel')}
            </Button>
            <Button
              color="red"
              loading={reset.isPending}
              onClick={() => {
                reset.mutate();
              }}
            >
              {t('thresholds.resetConfirmButton')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}

/**
 * The patient's thresholds (spec §3): lower and upper bounds per metric and level, custom ones
 * marked, shown and entered in the tenant's units (stored in canonical units). Holders of health.threshold edit and reset them; everyone else reads them.
 */
export function ThresholdsEditor({ patientId, canEdit }: { patientId: string; canEdit: boolean }) {
  const { t } = useTranslation('health');
  const { settings } = useSession();
  const units = useMemo(() => thresholdUnitsOf(settings), [settings]);
  const query = useQuery(thresholdsQuery(patientId));
  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        title={t('thresholds.loadError')}
        onRetry={() => void query.refetch()}
      />
    );
  return (
    <ThresholdsForm
      key={`${query.data.updatedAt ?? 'defaults'}-${String(query.data.custom.length)}`}
      patientId={patientId}
      view={query.data}
      canEdit={canEdit}
      units={units}
    />
  );
}
