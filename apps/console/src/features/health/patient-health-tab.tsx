import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Tabs } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { patientDetailQuery, PATIENTS_QUERY_ROOT } from '../patients/patients-api';
import { usePermissions } from '../shell/permissions';
import { EcgPanel } from './ecg-panel';
import { HEALTH_QUERY_ROOT, latestReadingsQuery } from './health-api';
import { HealthCharts } from './health-charts';
import { LatestTiles } from './latest-tiles';
import { SleepPanel } from './sleep-panel';
import { ThresholdsEditor } from './thresholds-editor';

/**
 * The Health tab of the patient profile (spec §2): latest values, charts per measure for a day,
 * week, month or year with the threshold zones, ECG records, sleep, and the thresholds editor.
 */
export function PatientHealthTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('health');
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const [tab, setTab] = useState<string | null>('charts');
  const latest = useQuery(latestReadingsQuery(patientId));
  const patient = useQuery(patientDetailQuery(patientId));
  const vitalStatus = latest.data?.status;

  // A reading can raise the patient's status: when the vitals report a new status, reload the
  // profile so its badge follows (once per change, so a lasting difference cannot loop).
  const seenStatus = useRef(vitalStatus);
  useEffect(() => {
    if (vitalStatus === undefined || seenStatus.current === vitalStatus) return;
    seenStatus.current = vitalStatus;
    void queryClient.invalidateQueries({ queryKey: [...PATIENTS_QUERY_ROOT, 'detail', patientId] });
  }, [vitalStatus, patientId, queryClient]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [...HEALTH_QUERY_ROOT, patientId] });
    void queryClient.invalidateQueries({ queryKey: [...PATIENTS_QUERY_ROOT, 'detail', patientId] });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <LatestTiles query={latest} />
        <Button variant="default" size="xs" onClick={refresh} style={{ flexShrink: 0 }}>
          {t('refresh')}
        </Button>
      </Group>
      <Tabs value={tab} onChange={setTab} variant="pills" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="charts">{t('tabs.charts')}</Tabs.Tab>
          <Tabs.Tab value="ecg">{t('tabs.ecg')}</Tabs.Tab>
          <Tabs.Tab value="sleep">{t('tabs.sleep')}</Tabs.Tab>
          <Tabs.Tab value="thresholds">{t('tabs.thresholds')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="charts" pt="md">
          <HealthCharts patientId={patientId} />
        </Tabs.Panel>
        <Tabs.Panel value="ecg" pt="md">
          <EcgPanel patientId={patientId} gender={patient.data?.gender ?? null} />
        </Tabs.Panel>
        <Tabs.Panel value="sleep" pt="md">
          <SleepPanel patientId={patientId} />
        </Tabs.Panel>
        <Tabs.Panel value="thresholds" pt="md">
          <ThresholdsEditor patientId={patientId} canEdit={can('health.threshold')} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
