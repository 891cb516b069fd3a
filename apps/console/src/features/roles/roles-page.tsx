import { useState } from 'react';
import { Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PlusIcon } from '../shell/icons';
import { Can } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { AssignRoleDialog } from './assign-role-dialog';
import { CustomRolesTable } from './custom-roles-table';
import { DefaultRolesMatrix } from './default-roles-matrix';

type RolesView = 'custom' | 'default';

/** Role and permission management (spec §2, §6): the tenant's custom roles and the default ones. */
export function RolesPage() {
  const { t } = useTranslation('roles');
  usePageTitle(t('rolesPage.pageTitle'));
  const [searchParams, setSearchParams] = useSearchParams();
  const view: RolesView = searchParams.get('view') === 'default' ? 'default' : 'custom';
  const [isAssignOpen, setIsAssignOpen] = useState(false);

  return (
    <Stack gap="lg" maw={1180}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('rolesPage.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('rolesPage.subtitle')}
          </Text>
        </Stack>
        <Can permission="permission.update">
          <Group gap="sm">
            <Button
              variant="default"
              onClick={() => {
                setIsAssignOpen(true);
              }}
            >
              {t('rolesPage.assign')}
            </Button>
            <Button component={Link} to="new" leftSection={<PlusIcon />}>
              {t('rolesPage.create')}
            </Button>
          </Group>
        </Can>
      </Group>
      <Tabs
        value={view}
        onChange={(value) => {
          setSearchParams(value === 'default' ? { view: 'default' } : {}, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List>
          <Tabs.Tab value="custom">{t('rolesPage.customTab')}</Tabs.Tab>
          <Tabs.Tab value="default">{t('rolesPage.defaultTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="custom" pt="lg">
          <CustomRolesTable />
        </Tabs.Panel>
        <Tabs.Panel value="default" pt="lg">
          <DefaultRolesMatrix />
        </Tabs.Panel>
      </Tabs>
      <Can permission="permission.update">
        <AssignRoleDialog
          opened={isAssignOpen}
          onClose={() => {
            setIsAssignOpen(false);
          }}
        />
      </Can>
    </Stack>
  );
}
