import { Box, Group, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { areaPath } from '../shell/navigation';
import { usePermissions } from '../shell/permissions';
import { useSession } from '../shell/session-context';

export type ScheduleTab = 'my-schedule' | 'working-calendar' | 'schedule-report';

/**
 * The tab row over the schedule pages: the doctor's own calendar or the admins' working calendar
 * (whichever the user may open), and the statistics next to it. Links, so each is an address.
 */
export function ScheduleTabs({ current }: { current: ScheduleTab }) {
  const { t } = useTranslation('schedules');
  const { can } = usePermissions();
  const { area } = useSession();
  const tabs: { value: ScheduleTab; label: string }[] = [
    ...(can('appointment.schedule')
      ? [{ value: 'my-schedule' as const, label: t('report.tabs.mySchedule') }]
      : []),
    ...(can('appointment.approve')
      ? [{ value: 'working-calendar' as const, label: t('report.tabs.workingCalendar') }]
      : []),
    { value: 'schedule-report', label: t('report.tabs.statistics') },
  ];
  return (
    // Not a navigation landmark: the side navigation stays the page's one (its links keep unique names).
    <Box
      data-testid="schedule-tabs"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap={4}>
        {tabs.map((tab) => {
          const isCurrent = tab.value === current;
          return (
            <UnstyledButton
              key={tab.value}
              component={Link}
              to={areaPath(area, tab.value)}
              aria-current={isCurrent ? 'page' : undefined}
              px="md"
              py={8}
              fz="sm"
              fw={isCurrent ? 600 : 500}
              c={isCurrent ? 'var(--mantine-primary-color-filled)' : 'dimmed'}
              style={{
                marginBottom: -1,
                borderBottom: `2px solid ${isCurrent ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
              }}
            >
              {tab.label}
            </UnstyledButton>
          );
        })}
      </Group>
    </Box>
  );
}
