import { useState } from 'react';
import { Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOrgReach } from '../levels/use-org-reach';
import { RecordFilter } from '../shell/data-table-filters';
import { usePageTitle } from '../shell/use-page-title';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleTabs } from './schedule-tabs';

/** /<area>/working-calendar: the doctors' working hours of a center (or of every center seen). */
export function WorkingCalendarPage() {
  const { t } = useTranslation('schedules');
  usePageTitle(t('working.pageTitle'));
  const { centers } = useOrgReach();
  const [centerId, setCenterId] = useState<string | null>(null);
  const [withPending, setWithPending] = useState(false);
  return (
    <Stack gap="lg" maw={1400}>
      <ScheduleTabs current="working-calendar" />
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('working.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('working.subtitle')}
        </Text>
      </Stack>
      <Group align="flex-end" gap="lg">
        <RecordFilter
          items={centers}
          nameOf={(center) => center.name}
          value={centerId}
          onChange={setCenterId}
          label={t('working.center')}
          placeholder={t('working.allCenters')}
          width={280}
          nothingFound={t('working.noOption')}
        />
        <Switch
          label={t('working.withPending')}
          checked={withPending}
          onChange={(event) => {
            setWithPending(event.currentTarget.checked);
          }}
          mb={8}
        />
      </Group>
      <ScheduleCalendar
        filter={{ doctorId: null, centerId, withPending }}
        showDoctor
        testId="working-calendar"
      />
    </Stack>
  );
}
