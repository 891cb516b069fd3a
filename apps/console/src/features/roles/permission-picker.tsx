import { useId } from 'react';
import { Checkbox, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { PERMISSION_GROUPS, type Permission, type PermissionGroup } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const GROUPS = Object.keys(PERMISSION_GROUPS) as PermissionGroup[];

export function permissionsOf(group: PermissionGroup): Permission[] {
  return PERMISSION_GROUPS[group].map((action) => `${group}.${action}` as Permission);
}

/**
 * The twelve permission groups (spec §3), each with a checkbox for the whole group and one per
 * action. Permissions the author does not hold are shown but cannot be ticked: the server refuses
 * to let a role grant more than its author has (role.cannotGrant).
 */
export function PermissionPicker({
  value,
  onChange,
  grantable,
  isReadOnly,
  error,
}: {
  value: ReadonlySet<Permission>;
  onChange: (next: Set<Permission>) => void;
  grantable: ReadonlySet<string>;
  isReadOnly: boolean;
  error: string | undefined;
}) {
  const { t } = useTranslation('roles');
  const labelId = useId();
  const toggle = (permissions: Permission[], isOn: boolean) => {
    const next = new Set(value);
    for (const permission of permissions) {
      if (isOn && grantable.has(permission)) next.add(permission);
      if (!isOn) next.delete(permission);
    }
    onChange(next);
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fz="sm" fw={500} id={labelId}>
          {t('rolesPage.permissions')}{' '}
          <Text span c="red">
            *
          </Text>
        </Text>
        <Text fz="sm" c="dimmed" data-testid="permission-count">
          {t('rolesPage.selectedCount', { count: value.size })}
        </Text>
      </Group>
      {error ? (
        <Text c="red.7" fz="sm" role="alert">
          {error}
        </Text>
      ) : null}
      <SimpleGrid cols={3} spacing="sm" role="group" aria-labelledby={labelId}>
        {GROUPS.map((group) => {
          const permissions = permissionsOf(group);
          const checkedCount = permissions.filter((permission) => value.has(permission)).length;
          const canGrantAny = permissions.some((permission) => grantable.has(permission));
          return (
            <Paper key={group} withBorder radius="md" p="sm" data-testid={`permission-group-${group}`}>
              <Checkbox
                fw={600}
                label={t(`permissionGroups.${group}`)}
                checked={checkedCount === permissions.length}
                indeterminate={checkedCount > 0 && checkedCount < permissions.length}
                disabled={isReadOnly || !canGrantAny}
                onChange={(event) => {
                  toggle(permissions, event.currentTarget.checked);
                }}
                mb={8}
              />
              <Stack gap={6} pl={28}>
                {permissions.map((permission) => {
                  const isGrantable = grantable.has(permission);
                  const box = (
                    <Checkbox
                      size="xs"
                      label={t(`permissions.${permission}`)}
                      checked={value.has(permission)}
                      // A permission already in the role may be removed even when it cannot be granted anew.
                      disabled={isReadOnly || (!isGrantable && !value.has(permission))}
                      onChange={(event) => {
                        toggle([permission], event.currentTarget.checked);
                      }}
                    />
                  );
                  return isGrantable || isReadOnly ? (
                    <div key={permission}>{box}</div>
                  ) : (
                    <Tooltip
                      key={permission}
                      label={t('rolesPage.cannotGrant')}
                      position="top-start"
                      withArrow
                    >
                      <div>{box}</div>
                    </Tooltip>
                  );
                })}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
