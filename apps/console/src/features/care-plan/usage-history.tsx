import { useState } from 'react';
import { Button, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { IntakeCounts, UsageHistory } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatNumber, toDisplayDate } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { usageHistoryQuery } from './care-plan-api';
import { usageDays } from './usage-days';

/** How many days the per-day table shows before "Show every day". */
const RECENT_DAYS = 14;

function AdherenceBar({ counts, label }: { counts: IntakeCounts; label: string }) {
  const { t } = useTranslation('carePlan');
  const percent = counts.adherencePercent;
  return (
    <Stack gap={4} miw={140}>
      <Text fz="sm" fw={600} data-testid="adherence">
        {percent === null ? t('usage.noneDue') : t('usage.percent', { value: formatNumber(percent) })}
      </Text>
      <Progress
        value={percent ?? 0}
        color={percent === null ? 'gray' : percent >= 80 ? 'teal' : percent >= 50 ? 'yellow' : 'red'}
        size="sm"
        aria-label={label}
      />
    </Stack>
  );
}

/** "taken of due" for one medicine on one day, with a bar of the share taken. */
function DayCell({ counts }: { counts: IntakeCounts | undefined }) {
  const { t } = useTranslation('carePlan');
  if (counts === undefined || counts.due === 0)
    return (
      <Text fz="sm" c="dimmed">
        —
      </Text>
    );
  const taken = counts.taken + counts.takenEarly + counts.takenLate;
  return (
    <Stack gap={2} miw={90}>
      <Text fz="sm">{t('usage.takenOfDue', { taken, due: counts.due })}</Text>
      <Progress.Root size="sm" aria-hidden>
        <Progress.Section value={(taken / counts.due) * 100} color="teal" />
        <Progress.Section value={((counts.skipped + counts.unconfirmed) / counts.due) * 100} color="red" />
        <Progress.Section value={(counts.toTake / counts.due) * 100} color="gray.3" />
      </Progress.Root>
    </Stack>
  );
}

function UsageTables({ usage }: { usage: UsageHistory }) {
  const { t } = useTranslation('carePlan');
  const [showsEveryDay, setShowsEveryDay] = useState(false);
  const days = usageDays(usage);
  const shownDays = showsEveryDay ? days : days.slice(0, RECENT_DAYS);
  return (
    <Stack gap="lg">
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" aria-label={t('usage.perMedicine')} data-testid="usage-medicines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('usage.columns.medicine')}</Table.Th>
              <Table.Th>{t('usage.columns.adherence')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.due')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.taken')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.takenEarly')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.takenLate')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.skipped')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.unconfirmed')}</Table.Th>
              <Table.Th ta="right">{t('usage.columns.toTake')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {usage.medicines.map((medicine) => (
              <Table.Tr key={medicine.medicineId} data-testid="usage-medicine-row">
                <Table.Td fw={600} fz="sm">
                  {medicine.name}
                </Table.Td>
                <Table.Td>
                  <AdherenceBar
                    counts={medicine.counts}
                    label={t('usage.adherenceOf', { name: medicine.name })}
                  />
                </Table.Td>
                <Table.Td ta="right">{medicine.counts.due}</Table.Td>
                <Table.Td ta="right">{medicine.counts.taken}</Table.Td>
                <Table.Td ta="right">{medicine.counts.takenEarly}</Table.Td>
                <Table.Td ta="right">{medicine.counts.takenLate}</Table.Td>
                <Table.Td ta="right">{medicine.counts.skipped}</Table.Td>
                <Table.Td ta="right">{medicine.counts.unconfirmed}</Table.Td>
                <Table.Td ta="right">{medicine.counts.toTake}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {days.length === 0 ? null : (
        <Stack gap="xs">
          <Title order={4} fz="sm">
            {t('usage.perDay')}
          </Title>
          <Table.ScrollContainer minWidth={Math.max(480, 160 + usage.medicines.length * 140)}>
            <Table verticalSpacing="xs" aria-label={t('usage.perDay')} data-testid="usage-days">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('usage.columns.day')}</Table.Th>
                  {usage.medicines.map((medicine) => (
                    <Table.Th key={medicine.medicineId}>{medicine.name}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shownDays.map((day) => (
                  <Table.Tr key={day.date}>
                    <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                      {toDisplayDate(day.date)}
                    </Table.Td>
                    {usage.medicines.map((medicine) => (
                      <Table.Td key={medicine.medicineId}>
                        <DayCell counts={day.counts[medicine.medicineId]} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {days.length > RECENT_DAYS ? (
            <Group>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => {
                  setShowsEveryDay((current) => !current);
                }}
              >
                {showsEveryDay
                  ? t('usage.showRecent', { count: RECENT_DAYS })
                  : t('usage.showAll', { count: days.length })}
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Usage history (spec §2): per medicine the doses due from the start to today (or the end) by
 * state, with adherence (taken on time, early or late out of those whose time has come), and a day
 * by day table, newest first.
 */
export function UsageHistoryPanel({
  patientId,
  prescriptionId,
}: {
  patientId: string;
  prescriptionId: string;
}) {
  const { t } = useTranslation('carePlan');
  const usage = useQuery(usageHistoryQuery(patientId, prescriptionId));
  return (
    <Paper withBorder radius="md" p="lg" data-testid="usage-history">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Title order={3} fz="md">
              {t('usage.title')}
            </Title>
            {usage.isSuccess ? (
              <Text fz="sm" c="dimmed">
                {t('usage.range', { from: toDisplayDate(usage.data.from), to: toDisplayDate(usage.data.to) })}
              </Text>
            ) : null}
          </Stack>
          {usage.isSuccess ? <AdherenceBar counts={usage.data.total} label={t('usage.overall')} /> : null}
        </Group>
        {usage.isPending ? <LoadingState /> : null}
        {usage.isError ? (
          <ErrorState
            error={usage.error}
            title={t('usage.loadFailed')}
            onRetry={() => void usage.refetch()}
          />
        ) : null}
        {usage.isSuccess && usage.data.total.due === 0 ? (
          <EmptyList title={t('usage.empty')} description={t('usage.emptyHint')} />
        ) : null}
        {usage.isSuccess && usage.data.total.due > 0 ? <UsageTables usage={usage.data} /> : null}
      </Stack>
    </Paper>
  );
}
