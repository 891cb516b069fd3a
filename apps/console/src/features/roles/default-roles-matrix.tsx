import { Fragment } from 'react';
import { Paper, ScrollArea, Table, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PERMISSION_GROUPS, type Permission, type PermissionGroup } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { CheckIcon } from '../shell/icons';
import { ErrorState, LoadingState } from '../shell/query-states';
import { defaultRolesQuery } from './roles-api';

const GROUPS = Object.keys(PERMISSION_GROUPS) as PermissionGroup[];

/** What each default role grants, read-only: permissions down, roles across. */
export function DefaultRolesMatrix() {
  const { t } = useTranslation(['common', 'roles']);
  const roles = useQuery(defaultRolesQuery());
  if (roles.isPending) return <LoadingState />;
  if (roles.isError)
    return (
      <ErrorState
        error={roles.error}
        title={t('roles:rolesPage.defaultLoadFailed')}
        onRetry={() => void roles.refetch()}
      />
    );

  const grants = new Map(roles.data.map((role) => [role.code, new Set<Permission>(role.permissions)]));
  return (
    <Paper withBorder radius="md">
      <Text fz="sm" c="dimmed" p="md" pb={0}>
        {t('roles:rolesPage.defaultIntro')}
      </Text>
      <ScrollArea type="auto">
        <Table
          stickyHeader
          withColumnBorders
          verticalSpacing={6}
          fz="sm"
          aria-label={t('roles:rolesPage.defaultTableLabel')}
          data-testid="default-roles-matrix"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th miw={170}>{t('roles:rolesPage.permission')}</Table.Th>
              {roles.data.map((role) => (
                <Table.Th key={role.code} ta="center" fz="xs" miw={70} style={{ whiteSpace: 'normal' }}>
                  {t(`roles.${role.code}`)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {GROUPS.map((group) => (
              <Fragment key={group}>
                <Table.Tr bg="gray.0">
                  <Table.Td colSpan={roles.data.length + 1} fw={700} fz="xs" tt="uppercase" c="dimmed">
                    {t(`roles:permissionGroups.${group}`)}
                  </Table.Td>
                </Table.Tr>
                {PERMISSION_GROUPS[group].map((action) => {
                  const permission = `${group}.${action}` as Permission;
                  return (
                    <Table.Tr key={permission}>
                      <Table.Td>{t(`roles:permissions.${permission}`)}</Table.Td>
                      {roles.data.map((role) => {
                        const isGranted = grants.get(role.code)?.has(permission) ?? false;
                        return (
                          <Table.Td key={role.code} ta="center">
                            {isGranted ? (
                              <ThemeIcon size={18} radius="xl" color="teal" variant="light">
                                <CheckIcon width={12} height={12} />
                              </ThemeIcon>
                            ) : (
                              <Text c="gray.4" component="span" aria-hidden="true">
                                –
                              </Text>
                            )}
                            <VisuallyHidden>
                              {isGranted ? t('roles:rolesPage.granted') : t('roles:rolesPage.notGranted')}
                            </VisuallyHidden>
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  );
                })}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Paper>
  );
}
