import { Anchor, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatientListScope } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLiveEvent } from '../realtime/live-context';
import { sosAlertOf } from '../realtime/sos-alert';
import { areaPath } from '../shell/navigation';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { AttentionCell, CrossedCell, LastReadingCell, OpenWorkCell } from './patient-triage';
import { patientWorklistQuery, WORKLIST_SIZE } from './patients-api';
import { withOpenedCase } from './worklist-live';

/**
 * The triage worklist of a doctor's, assistant's and operator's home: the patients needing
 * attention first (open SOS case, SOS, high risk, at risk, no data, normal; then the freshest
 * reading), one click into the patient or the case. Live: its query sits under the patient lists'
 * key, which every patient, SOS, alert and ticket event makes stale; a new SOS case moves its
 * patient to the top at once, while the reload confirms it (worklist-live.ts).
 */
export function PatientWorklist({ scope }: { scope: PatientListScope }) {
  const { t } = useTranslation('patients');
  const session = useSession();
  const area = areaPath(session.area);
  const worklist = useQuery(patientWorklistQuery(scope));
  const queryClient = useQueryClient();
  useLiveEvent('sos.opened', (event) => {
    const alert = sosAlertOf(event);
    if (alert?.patientId == null) return;
    const opened = { patientId: alert.patientId, sosCaseId: alert.caseId };
    queryClient.setQueryData(patientWorklistQuery(scope).queryKey, (page) =>
      page === undefined ? page : withOpenedCase(page, opened),
    );
  });

  return (
    <Paper withBorder radius="md" p="lg" data-testid="patient-worklist">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={2} fz={20}>
              {t('triage.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t('triage.subtitle', { count: WORKLIST_SIZE })}
            </Text>
          </Stack>
          <Anchor component={Link} to={`${area}/patients`} fz="sm">
            {t('triage.seeAll')}
          </Anchor>
        </Group>
        {worklist.isPending ? <LoadingState /> : null}
        {worklist.isError ? (
          <ErrorState
            error={worklist.error}
            title={t('triage.loadError')}
            onRetry={() => void worklist.refetch()}
          />
        ) : null}
        {worklist.isSuccess && worklist.data.items.length === 0 ? (
          <Text c="dimmed" fz="sm" data-testid="worklist-empty">
            {scope === 'mine' ? t('triage.emptyMine') : t('triage.emptyCenter')}
          </Text>
        ) : null}
        {worklist.isSuccess && worklist.data.items.length > 0 ? (
          <Table verticalSpacing="xs" highlightOnHover aria-label={t('triage.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('triage.columns.patient')}</Table.Th>
                <Table.Th>{t('triage.columns.status')}</Table.Th>
                <Table.Th>{t('triage.columns.crossed')}</Table.Th>
                <Table.Th>{t('triage.columns.lastReading')}</Table.Th>
                <Table.Th>{t('triage.columns.work')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: worklist.isPlaceholderData ? 0.6 : 1 }}>
              {worklist.data.items.map((row) => (
                <Table.Tr
                  key={row.id}
                  data-testid="worklist-row"
                  data-patient-id={row.id}
                  data-attention={row.attention}
                >
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`${area}/patients/${row.id}`}
                      fw={600}
                      aria-label={t('list.open', { name: row.fullName })}
                    >
                      {row.fullName}
                    </Anchor>
                    <Text fz="xs" c="dimmed" ff="monospace">
                      {row.patientCode}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <AttentionCell row={row} />
                  </Table.Td>
                  <Table.Td>
                    <CrossedCell row={row} />
                  </Table.Td>
                  <Table.Td>
                    <LastReadingCell row={row} />
                  </Table.Td>
                  <Table.Td>
                    <OpenWorkCell row={row} areaPrefix={area} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}
