import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { isRoleAbove, isRoleBelow, type CustomRole } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { PlusIcon, SearchIcon } from '../shell/icons';
import { Can, usePermissions } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState, TablePager } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { DeleteRoleDialog } from './delete-role-dialog';
import { customRolesQuery } from './roles-api';

const PAGE_SIZE = 10;

/** The tenant's custom roles: searchable by name, paged, each opening the editor. */
export function CustomRolesTable() {
  const { t } = useTranslation(['common', 'roles']);
  const { can } = usePermissions();
  // The role hierarchy (contracts roles.ts): roles based at or above the caller are theirs to view
  // only, and a role based above them is not theirs to delete.
  const callerRole = useSession().user.role;
  const [search, setSearch] = useState('');
  // Ask the server once typing pauses, not on every key.
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(0);
  const [toDelete, setToDelete] = useState<CustomRole | null>(null);
  const roles = useQuery(customRolesQuery(page, PAGE_SIZE, debouncedSearch));

  return (
    <Stack gap="md">
      <TextInput
        label={t('roles:rolesPage.search')}
        placeholder={t('roles:rolesPage.searchPlaceholder')}
        leftSection={<SearchIcon />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(0);
        }}
        maw={360}
      />
      <Paper withBorder radius="md" p="md">
        {roles.isPending ? <LoadingState /> : null}
        {roles.isError ? (
          <ErrorState
            error={roles.error}
            title={t('roles:rolesPage.loadFailed')}
            onRetry={() => void roles.refetch()}
          />
        ) : null}
        {roles.isSuccess && roles.data.items.length === 0 ? (
          <EmptyList
            title={debouncedSearch ? t('roles:rolesPage.noMatchTitle') : t('roles:rolesPage.emptyTitle')}
            description={
              debouncedSearch ? t('roles:rolesPage.noMatch', { search: debouncedSearch }) : t('roles:rolesPage.empty')
            }
            action={
              debouncedSearch ? null : (
                <Can permission="permission.update">
                  <Button component={Link} to="new" leftSection={<PlusIcon />}>
                    {t('roles:rolesPage.create')}
                  </Button>
                </Can>
              )
            }
          />
        ) : null}
        {roles.isSuccess && roles.data.items.length > 0 ? (
          <>
            <Table
              highlightOnHover
              verticalSpacing="sm"
              aria-label={t('roles:rolesPage.tableLabel')}
              data-testid="roles-table"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('roles:rolesPage.name')}</Table.Th>
                  <Table.Th>{t('roles:rolesPage.baseRole')}</Table.Th>
                  <Table.Th ta="right">{t('roles:rolesPage.permissionCount')}</Table.Th>
                  <Table.Th ta="right">{t('roles:rolesPage.userCount')}</Table.Th>
                  <Table.Th>{t('roles:rolesPage.updated')}</Table.Th>
                  <Table.Th w={170}>
                    <VisuallyHidden>{t('roles:rolesPage.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: roles.isPlaceholderData ? 0.6 : 1 }}>
                {roles.data.items.map((role) => (
                  <Table.Tr key={role.id}>
                    <Table.Td>
                      <Anchor component={Link} to={role.id} fw={600}>
                        {role.name}
                      </Anchor>
                      {role.description ? (
                        <Text fz="xs" c="dimmed" lineClamp={1} maw={360}>
                          {role.description}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="gray" tt="none">
                        {t(`roles.${role.baseRole}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{role.permissions.length}</Table.Td>
                    <Table.Td ta="right">{role.userCount}</Table.Td>
                    <Table.Td>{formatDateTime(role.updatedAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button component={Link} to={role.id} size="compact-sm" variant="subtle">
                          {can('permission.update') && isRoleBelow(role, callerRole)
                            ? t('actions.edit')
                            : t('actions.view')}
                        </Button>
                        {can('permission.update') && !isRoleAbove(role, callerRole) ? (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            onClick={() => {
                              setToDelete(role);
                            }}
                          >
                            {t('actions.delete')}
                          </Button>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <TablePager page={page} size={PAGE_SIZE} total={roles.data.total} onChange={setPage} />
          </>
        ) : null}
      </Paper>
      <DeleteRoleDialog
        role={toDelete}
        onClose={() => {
          setToDelete(null);
        }}
      />
    </Stack>
  );
}
