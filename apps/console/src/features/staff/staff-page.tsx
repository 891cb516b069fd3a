import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { STAFF_LISTS, type RoleCode, type StaffList } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PlusIcon } from '../shell/icons';
import { Can } from '../shell/permissions';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { isPlatformRole, PLATFORM_LISTS } from './staff-api';
import { StaffTable } from './staff-table';

const TENANT_LISTS: readonly StaffList[] = [
  'employee',
  'scopeAdmin',
  'mhscAdmin',
  'mhscDoctor',
  'doctorAssistant',
];

/** The lists a caller is offered: the platform's own staff only to platform staff. */
export function staffListsFor(role: RoleCode): StaffList[] {
  return isPlatformRole(role) ? [...TENANT_LISTS, ...PLATFORM_LISTS] : [...TENANT_LISTS];
}

/**
 * Staff management (spec §2): employees, scope admins, MHSC admins, MHSC doctors, doctor assistants,
 * and for platform staff the system and super admins. The open list is in the address (?list=).
 */
export function StaffPage() {
  const { t } = useTranslation('org');
  usePageTitle(t('staff.pageTitle'));
  const session = useSession();
  const lists = staffListsFor(session.user.role);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('list');
  const list = lists.find((item) => item === requested) ?? 'employee';

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('staff.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('staff.subtitle')}
          </Text>
        </Stack>
        <Can permission="staff.create">
          <Button component={Link} to={`new?role=${STAFF_LISTS[list][0]}`} leftSection={<PlusIcon />}>
            {t('staff.create')}
          </Button>
        </Can>
      </Group>
      <Tabs
        value={list}
        onChange={(value) => {
          setSearchParams(value === null || value === 'employee' ? {} : { list: value }, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List>
          {lists.map((item) => (
            <Tabs.Tab key={item} value={item}>
              {t(`staff.lists.${item}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {lists.map((item) => (
          <Tabs.Panel key={item} value={item} pt="lg">
            <StaffTable list={item} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
