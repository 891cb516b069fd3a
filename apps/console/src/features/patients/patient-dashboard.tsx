import { useState } from 'react';
import { Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PATIENT_STATUSES, type PatientListScope, type PatientStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { CountBarChart } from '../../lib/count-charts';
import { formatNumber } from '../../lib/format';
import { levelOptionsQuery } from '../levels/levels-api';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { dashboardCallOf, dashboardCountsQuery } from './patients-api';
import { STATUS_COLOR } from './patient-status-badge';

const CENTER_ADMIN_ROLES = ['MAIN_ADMIN', 'SUPPORT_ADMIN', 'SCOPE_ADMIN', 'MHSC_ADMIN'];

/**
 * The dashboard (spec §2, §7): patients by status from the call that fits the user's role (a
 * doctor's patients, an assistant's doctors' patients, a health center's, or all the level sees),
 * as four tiles and a bar chart. With `listScope` (mine or center, the home's choice) the counts are
 * those of the patient list for that scope. Refreshed every 30 seconds and after every status change.
 */
export function PatientDashboard({ listScope }: { listScope?: PatientListScope } = {}) {
  const { t } = useTranslation('patients');
  const session = useSession();
  const role = session.user.role;
  const levels = useQuery(levelOptionsQuery());
  const centers = levels.data?.centers ?? [];
  const isCenterAdmin = CENTER_ADMIN_ROLES.includes(role);
  const isClinical = role === 'DOCTOR' || role === 'DOCTOR_ASSISTANT';
  const [chosenCenter, setChosenCenter] = useState<string | null>(null);
  // A center admin's counts are of one center: the chosen one, else the level's, else the first visible.
  const centerId =
    chosenCenter ?? (isCenterAdmin ? (levels.data?.current.centerId ?? centers[0]?.id ?? null) : null);
  const call = dashboardCallOf(role, centerId, listScope);
  const isWaitingForCenter = isCenterAdmin && centerId === null;
  const counts = useQuery({
    ...dashboardCountsQuery(call.path),
    enabled: !isWaitingForCenter && !(isCenterAdmin && levels.isPending),
  });

  return (
    <Paper withBorder radius="md" p="lg" data-testid="patient-dashboard">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={2} fz={20}>
              {t('dashboard.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t(`dashboard.scope.${call.scope}`)} · {t('dashboard.updated')}
            </Text>
          </Stack>
          {isClinical || centers.length < 2 ? null : (
            <Select
              label={t('list.centerFilter')}
              placeholder={t('list.allCenters')}
              data={centers.map((center) => ({ value: center.id, label: center.name }))}
              value={centerId}
              onChange={setChosenCenter}
              clearable={!isCenterAdmin}
              searchable
              w={260}
            />
          )}
        </Group>
        {counts.isPending && !isWaitingForCenter ? <LoadingState /> : null}
        {counts.isError ? (
          <ErrorState
            error={counts.error}
            title={t('dashboard.loadError')}
            onRetry={() => void counts.refetch()}
          />
        ) : null}
        {counts.isSuccess ? (
          <>
            <SimpleGrid cols={5} spacing="md">
              <Paper withBorder radius="md" p="md" data-testid="dashboard-total">
                <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                  {t('dashboard.total')}
                </Text>
                <Text fz={28} fw={700}>
                  {formatNumber(counts.data.total)}
                </Text>
              </Paper>
              {PATIENT_STATUSES.map((status: PatientStatus) => (
                <Paper
                  key={status}
                  withBorder
                  radius="md"
                  p="md"
                  data-testid={`dashboard-${status}`}
                  style={{ borderLeft: `4px solid var(--mantine-color-${STATUS_COLOR[status]}-6)` }}
                >
                  <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                    {t(`status.${status}`)}
                  </Text>
                  <Text fz={28} fw={700} c={STATUS_COLOR[status]}>
                    {formatNumber(counts.data[status])}
                  </Text>
                </Paper>
              ))}
            </SimpleGrid>
            <CountBarChart
              label={t('dashboard.chartLabel')}
              height={220}
              categories={PATIENT_STATUSES.map((status) => ({
                key: status,
                label: t(`status.${status}`),
                values: { count: counts.data[status] },
                color: STATUS_COLOR[status],
              }))}
              series={[{ key: 'count', label: t('dashboard.total'), color: 'blue.6' }]}
              testId="dashboard-chart"
            />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
