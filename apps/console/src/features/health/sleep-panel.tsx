import { useState } from 'react';
import {
  Badge,
  Box,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { SLEEP_REFERENCE, type SleepDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatTime } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { sleepDetailQuery, sleepListQuery } from './health-api';
import { hoursAndMinutes, sleepCycles, sleepShares } from './health-rules';

const PAGE_SIZE = 7;
const STAGE_COLORS = { AWAKE: '#ffa94d', REM: '#74c0fc', LIGHT: '#4dabf7', DEEP: '#1864ab' } as const;
const STAGE_ROWS = ['AWAKE', 'REM', 'LIGHT', 'DEEP'] as const;

function useDuration() {
  const { t } = useTranslation('health');
  return (minutes: number) => t('sleep.duration', hoursAndMinutes(minutes));
}

/** The night as a hypnogram: one row per stage, a block for each period in that stage. */
function StagesTimeline({ sleep }: { sleep: SleepDetail }) {
  const { t } = useTranslation('health');
  const start = Date.parse(sleep.startAt);
  const span = Math.max(1, Date.parse(sleep.endAt) - start);
  if (sleep.stages.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        {t('sleep.noStages')}
      </Text>
    );
  return (
    <Stack gap={4} role="img" aria-label={t('sleep.timelineLabel')} data-testid="sleep-timeline">
      {STAGE_ROWS.map((stage) => (
        <Group key={stage} gap="sm" wrap="nowrap">
          <Text fz="xs" w={70} ta="right" c="dimmed">
            {t(`sleep.stages.${stage}`)}
          </Text>
          <Box
            pos="relative"
            h={18}
            style={{ flexGrow: 1, background: 'var(--mantine-color-gray-0)', borderRadius: 3 }}
          >
            {sleep.stages
              .filter((item) => item.stage === stage)
              .map((item) => {
                const from = Date.parse(item.from);
                const to = Date.parse(item.to);
                return (
                  <Tooltip key={item.from} label={`${formatTime(item.from)}–${formatTime(item.to)}`}>
                    <Box
                      pos="absolute"
                      top={0}
                      h={18}
                      style={{
                        left: `${String(((from - start) / span) * 100)}%`,
                        width: `${String(Math.max(0.3, ((to - from) / span) * 100))}%`,
                        background: STAGE_COLORS[stage],
                        borderRadius: 2,
                      }}
                    />
                  </Tooltip>
                );
              })}
          </Box>
        </Group>
      ))}
      <Group justify="space-between" pl={82}>
        <Text fz="xs" c="dimmed">
          {formatTime(sleep.startAt)}
        </Text>
        <Text fz="xs" c="dimmed">
          {formatTime(sleep.endAt)}
        </Text>
      </Group>
    </Stack>
  );
}

function SleepDetailView({ patientId, sleepId }: { patientId: string; sleepId: string }) {
  const { t } = useTranslation('health');
  const duration = useDuration();
  const detail = useQuery(sleepDetailQuery(patientId, sleepId));
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const sleep = detail.data;
  const shares = sleepShares(sleep);
  const cycles = sleepCycles(sleep.totalMinutes);
  const none = t('none');
  return (
    <Stack gap="md" data-testid="sleep-detail">
      <Title order={3} fz="md">
        {t('sleep.nightOf', { from: formatDateTime(sleep.startAt), to: formatTime(sleep.endAt) })}
      </Title>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
        <Paper withBorder radius="md" p="sm">
          <Text fz="xs" tt="uppercase" fw={600} c="dimmed">
            {t('sleep.total')}
          </Text>
          <Text fz="lg" fw={600}>
            {duration(sleep.totalMinutes)}
          </Text>
          <Text fz="xs" c="dimmed">
            {t('sleep.cycles', { count: cycles, perfect: SLEEP_REFERENCE.perfectCycles })}
          </Text>
        </Paper>
        <Paper withBorder radius="md" p="sm">
          <Text fz="xs" tt="uppercase" fw={600} c="dimmed">
            {t('sleep.wakeCount')}
          </Text>
          <Text fz="lg" fw={600}>
            {sleep.wakeCount}
          </Text>
          <Text fz="xs" c="dimmed">
            {t('sleep.reference', {
              low: SLEEP_REFERENCE.awakenings[0],
              high: SLEEP_REFERENCE.awakenings[1],
            })}
          </Text>
        </Paper>
        <Paper withBorder radius="md" p="sm">
          <Text fz="xs" tt="uppercase" fw={600} c="dimmed">
            {t('sleep.fallingAsleep')}
          </Text>
          <Text fz="lg" fw={600}>
            {sleep.fallingAsleepMinutes === null
              ? none
              : t('sleep.minutes', { count: sleep.fallingAsleepMinutes })}
          </Text>
          <Text fz="xs" c="dimmed">
            {t('sleep.referenceMinutes', {
              low: SLEEP_REFERENCE.onsetMinutes[0],
              high: SLEEP_REFERENCE.onsetMinutes[1],
            })}
          </Text>
        </Paper>
        <Paper withBorder radius="md" p="sm">
          <Text fz="xs" tt="uppercase" fw={600} c="dimmed">
            {t('sleep.reSleep')}
          </Text>
          <Text fz="lg" fw={600}>
            {sleep.reSleepMinutes === null ? none : t('sleep.minutes', { count: sleep.reSleepMinutes })}
          </Text>
        </Paper>
      </SimpleGrid>
      <StagesTimeline sleep={sleep} />
      <Stack gap="xs">
        {shares.map((share) => (
          <Group key={share.stage} gap="sm" wrap="nowrap">
            <Text fz="sm" w={90}>
              {t(`sleep.share.${share.stage}`)}
            </Text>
            <Progress
              value={share.percent}
              style={{ flexGrow: 1 }}
              aria-label={t(`sleep.share.${share.stage}`)}
            />
            <Text fz="sm" w={150} ta="right">
              {t('sleep.percentOf', { percent: share.percent, minutes: duration(share.minutes) })}
            </Text>
            <Badge
              w={150}
              color={share.isWithin ? 'teal' : 'orange'}
              variant="light"
              tt="none"
              data-testid={`sleep-share-${share.stage}`}
            >
              {t(share.isWithin ? 'sleep.within' : 'sleep.outside', {
                low: share.reference[0],
                high: share.reference[1],
              })}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

/** The patient's nights, newest first, and the chosen night's detail. */
export function SleepPanel({ patientId }: { patientId: string }) {
  const { t } = useTranslation('health');
  const duration = useDuration();
  const [page, setPage] = useState(0);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = useQuery(sleepListQuery(patientId, page, PAGE_SIZE));
  if (list.isPending) return <LoadingState />;
  if (list.isError)
    return <ErrorState error={list.error} title={t('sleep.loadError')} onRetry={() => void list.refetch()} />;
  if (list.data.total === 0) return <EmptyList title={t('sleep.empty')} description={t('sleep.emptyHint')} />;
  const current = chosen ?? list.data.items[0]?.id ?? null;
  return (
    <Stack gap="lg">
      <Table highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('sleep.night')}</Table.Th>
            <Table.Th>{t('sleep.total')}</Table.Th>
            <Table.Th>{t('sleep.share.deep')}</Table.Th>
            <Table.Th>{t('sleep.share.light')}</Table.Th>
            <Table.Th>{t('sleep.share.rem')}</Table.Th>
            <Table.Th>{t('sleep.wakeCount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.data.items.map((night) => (
            <Table.Tr
              key={night.id}
              bg={night.id === current ? 'var(--mantine-color-blue-light)' : undefined}
            >
              <Table.Td>
                <UnstyledButton
                  onClick={() => {
                    setChosen(night.id);
                  }}
                  fz="sm"
                  c="blue"
                >
                  {formatDate(night.endAt)}
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{duration(night.totalMinutes)}</Table.Td>
              <Table.Td>{duration(night.deepMinutes)}</Table.Td>
              <Table.Td>{duration(night.lightMinutes)}</Table.Td>
              <Table.Td>{duration(night.remMinutes)}</Table.Td>
              <Table.Td>{night.wakeCount}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <TablePager page={page} size={PAGE_SIZE} total={list.data.total} onChange={setPage} />
      {current === null ? null : <SleepDetailView key={current} patientId={patientId} sleepId={current} />}
    </Stack>
  );
}
