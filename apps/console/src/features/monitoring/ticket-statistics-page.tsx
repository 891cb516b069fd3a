import { useState } from 'react';
import { Anchor, Card, ColorSwatch, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CountBarChart, CountRingChart } from '../../lib/count-charts';
import { formatNumber, parseDisplayDate, toDisplayDate } from '../../lib/format';
import { DateField } from '../shell/date-field';
import { Link } from 'react-router';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { ticketStatisticsQuery } from './monitoring-api';

const STATUS_COLORS = {
  NEW: 'red.6',
  CONFIRMED: 'blue.6',
  PROCESSING: 'orange.6',
  COMPLETED: 'teal.6',
  SUCCESS: 'green.6',
  CANCELED: 'gray.5',
} as const;

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Ticket statistics (spec §2) over a date range: per status, per type, KPI failures, handling time. */
export function TicketStatisticsPage() {
  const { t } = useTranslation('monitoring');
  usePageTitle(t('tickets.stats.title'));
  const today = new Date();
  // Typed as dd/MM/yyyy (spec §9) and sent as ISO dates.
  const [typed, setTyped] = useState({
    from: toDisplayDate(isoDay(new Date(today.getTime() - 29 * 86_400_000))),
    to: toDisplayDate(isoDay(today)),
  });
  const range = { from: parseDisplayDate(typed.from) ?? '', to: parseDisplayDate(typed.to) ?? '' };
  const isValid = range.from !== '' && range.to !== '' && range.from <= range.to;
  const statistics = useQuery({ ...ticketStatisticsQuery(range), enabled: isValid });

  return (
    <Stack gap="lg" maw={1380}>
      <Stack gap={4}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('tickets.detail.back')}
        </Anchor>
        <Title order={1} fz={26}>
          {t('tickets.stats.title')}
        </Title>
      </Stack>
      <Group gap="sm" align="flex-start">
        <DateField
          label={t('tickets.stats.from')}
          value={typed.from}
          onChange={(value) => {
            setTyped((current) => ({ ...current, from: value }));
          }}
          error={isValid ? undefined : t('tickets.stats.invalidRange')}
        />
        <DateField
          label={t('tickets.stats.to')}
          value={typed.to}
          onChange={(value) => {
            setTyped((current) => ({ ...current, to: value }));
          }}
          error={undefined}
        />
      </Group>
      {statistics.isPending && isValid ? <LoadingState /> : null}
      {statistics.isError ? (
        <ErrorState
          error={statistics.error}
          title={t('tickets.stats.loadError')}
          onRetry={() => void statistics.refetch()}
        />
      ) : null}
      {statistics.data === undefined ? null : (
        <>
          <SimpleGrid cols={{ base: 2, md: 5 }} spacing="md">
            <Card withBorder radius="md">
              <Text fz="sm" c="dimmed">
                {t('tickets.stats.total')}
              </Text>
              <Text fz={28} fw={700} data-testid="stats-total">
                {formatNumber(statistics.data.total)}
              </Text>
            </Card>
            <Card withBorder radius="md">
              <Text fz="sm" c="dimmed">
                {t('tickets.stats.averageHandling')}
              </Text>
              <Text fz={28} fw={700}>
                {statistics.data.averageHandlingMinutes === null
                  ? '—'
                  : t('tickets.stats.minutes', { count: statistics.data.averageHandlingMinutes })}
              </Text>
            </Card>
            {statistics.data.kpiFailures.map((failure) => (
              <Card withBorder radius="md" key={failure.reason}>
                <Text fz="sm" c="dimmed">
                  {t(`kpiReason.${failure.reason}`)}
                </Text>
                <Text fz={28} fw={700} c={failure.count > 0 ? 'red' : undefined}>
                  {formatNumber(failure.count)}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <Card withBorder radius="md">
              <Title order={2} fz="md" mb="sm">
                {t('tickets.stats.byStatus')}
              </Title>
              {statistics.data.total === 0 ? (
                <Text c="dimmed" fz="sm">
                  {t('tickets.stats.none')}
                </Text>
              ) : (
                <Group gap="xl" align="center">
                  <CountRingChart
                    label={t('tickets.stats.byStatus')}
                    slices={statistics.data.byStatus.map((row) => ({
                      key: row.status,
                      label: t(`ticketStatus.${row.status}`),
                      value: row.count,
                      color: STATUS_COLORS[row.status],
                    }))}
                  />
                  <Stack gap={6} data-testid="stats-status-legend">
                    {statistics.data.byStatus.map((row) => (
                      <Group key={row.status} gap="xs">
                        <ColorSwatch
                          color={`var(--mantine-color-${STATUS_COLORS[row.status].replace('.', '-')})`}
                          size={12}
                        />
                        <Text fz="sm">
                          {t(`ticketStatus.${row.status}`)}: {formatNumber(row.count)}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                </Group>
              )}
            </Card>
            <Card withBorder radius="md">
              <Title order={2} fz="md" mb="sm">
                {t('tickets.stats.byType')}
              </Title>
              <CountBarChart
                label={t('tickets.stats.byType')}
                height={220}
                categories={statistics.data.byType.map((row) => ({
                  key: row.type,
                  label: t(`ticketType.${row.type}`),
                  values: { count: row.count },
                }))}
                series={[{ key: 'count', label: t('tickets.stats.count'), color: 'blue.6' }]}
              />
            </Card>
          </SimpleGrid>
          <Card withBorder radius="md">
            <Title order={2} fz="md" mb="sm">
              {t('tickets.stats.perDay')}
            </Title>
            <CountBarChart
              label={t('tickets.stats.perDay')}
              height={260}
              withLegend
              categories={statistics.data.perDay.map((entry) => ({
                key: entry.day,
                label: toDisplayDate(entry.day).slice(0, 5),
                values: { created: entry.created, closed: entry.closed },
              }))}
              series={[
                { key: 'created', label: t('tickets.stats.created'), color: 'blue.6' },
                { key: 'closed', label: t('tickets.stats.closed'), color: 'green.6' },
              ]}
            />
          </Card>
        </>
      )}
    </Stack>
  );
}
