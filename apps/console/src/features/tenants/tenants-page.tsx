import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlusIcon } from '../shell/icons';
import { Can } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { TenantsTable } from './tenants-table';

/** Tenant list (spec §2): the platform's customer organisations with their counts. */
export function TenantsPage() {
  const { t } = useTranslation('tenants');
  usePageTitle(t('list.pageTitle'));

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('list.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('list.subtitle')}
          </Text>
        </Stack>
        <Can permission="tenant.create">
          <Button component={Link} to="new" leftSection={<PlusIcon />}>
            {t('list.create')}
          </Button>
        </Can>
      </Group>
      <TenantsTable />
    </Stack>
  );
}
