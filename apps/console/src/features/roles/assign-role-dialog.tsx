import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Radio,
  ScrollArea,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assignRoleSchema, isRoleBelow, TENANT_ROLES, type AssignableUser } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { SearchIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { assignableUsersQuery, assignRole, customRolesQuery, ROLES_QUERY_ROOT } from './roles-api';

const USER_PAGE_SIZE = 8;
/** Custom roles offered in the picker; a tenant with more finds them by typing in the select. */
const CUSTOM_ROLE_LIMIT = 100;

function UserChoices({
  search,
  value,
  onChange,
}: {
  search: string;
  value: string | null;
  onChange: (user: AssignableUser) => void;
}) {
  const { t } = useTranslation(['common', 'roles']);
  const users = useQuery(assignableUsersQuery(search, 0, USER_PAGE_SIZE));
  if (users.isPending) return <LoadingState />;
  if (users.isError)
    return (
      <ErrorState
        error={users.error}
        title={t('roles:rolesPage.usersLoadFailed')}
        onRetry={() => void users.refetch()}
      />
    );
  if (users.data.items.length === 0)
    return <EmptyList title={t('roles:rolesPage.noUsers')} description={t('roles:rolesPage.noUsersHint')} />;
  return (
    <Radio.Group
      value={value}
      onChange={(id) => {
        const user = users.data.items.find((item) => item.id === id);
        if (user) onChange(user);
      }}
      label={t('roles:rolesPage.user')}
      withAsterisk
    >
      <ScrollArea.Autosize mah={260} mt={6}>
        <Stack gap={6}>
          {users.data.items.map((user) => (
            <Radio.Card key={user.id} value={user.id} radius="md" p="sm" aria-label={user.fullName}>
              <Group justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <Radio.Indicator />
                  <div>
                    <Text fz="sm" fw={600}>
                      {user.fullName}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {user.email ?? user.phone ?? ''}
                    </Text>
                  </div>
                </Group>
                <Badge variant="light" color="gray" tt="none">
                  {user.customRole ? user.customRole.name : t(`roles.${user.role}`)}
                </Badge>
              </Group>
            </Radio.Card>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Radio.Group>
  );
}

/**
 * "Assign role": pick a user and a default or custom role (spec §5: at least one role must be
 * chosen), then confirm, because the user's sessions end and they must sign in again (spec §6).
 */
export function AssignRoleDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(['common', 'errors', 'roles']);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [user, setUser] = useState<AssignableUser | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ user?: boolean; role?: boolean }>({});
  const [isConfirming, setIsConfirming] = useState(false);
  const customRoles = useQuery({ ...customRolesQuery(0, CUSTOM_ROLE_LIMIT, ''), enabled: opened });
  // Only roles strictly below the caller's own may be handed out (contracts roles.ts); the user
  // list comes from the server already limited the same way.
  const callerRole = useSession().user.role;

  const roleOptions = [
    {
      group: t('roles:rolesPage.defaultTab'),
      items: TENANT_ROLES.filter((code) => isRoleBelow(code, callerRole)).map((code) => ({
        value: code,
        label: t(`roles.${code}`),
      })),
    },
    {
      group: t('roles:rolesPage.customTab'),
      items: (customRoles.data?.items ?? [])
        .filter((item) => isRoleBelow(item, callerRole))
        .map((item) => ({ value: item.id, label: item.name })),
    },
  ];
  const roleLabel =
    roleOptions.flatMap((group) => group.items).find((item) => item.value === role)?.label ?? '';

  const close = () => {
    setSearch('');
    setUser(null);
    setRole(null);
    setErrors({});
    setIsConfirming(false);
    mutation.reset();
    onClose();
  };

  const mutation = useMutation({
    mutationFn: (input: { userId: string; role: string }) => assignRole(input.userId, input.role),
    meta: { errorDisplay: 'inline' },
    onSuccess: (assigned) => {
      notifySuccess(t('roles:rolesPage.assigned', { name: assigned.fullName, role: roleLabel }));
      void queryClient.invalidateQueries({ queryKey: ROLES_QUERY_ROOT });
      close();
    },
  });

  const review = () => {
    const parsed = assignRoleSchema.safeParse({ userId: user?.id, role: role ?? undefined });
    if (!parsed.success) {
      const paths = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      setErrors({ user: paths.has('userId'), role: paths.has('role') });
      return;
    }
    setErrors({});
    setIsConfirming(true);
  };

  return (
    <Modal opened={opened} onClose={close} title={t('roles:rolesPage.assignTitle')} size="lg" centered>
      {isConfirming && user ? (
        <Stack gap="md" data-testid="assign-confirm">
          <Text>{t('roles:rolesPage.assignConfirm', { name: user.fullName, role: roleLabel })}</Text>
          <Alert color="orange" variant="light">
            {t('roles:rolesPage.assignSignOut', { name: user.fullName })}
          </Alert>
          {mutation.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(mutation.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setIsConfirming(false);
                mutation.reset();
              }}
            >
              {t('actions.back')}
            </Button>
            <Button
              loading={mutation.isPending}
              onClick={() => {
                if (role) mutation.mutate({ userId: user.id, role });
              }}
              data-autofocus
            >
              {t('roles:rolesPage.assignConfirmButton')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            review();
          }}
          noValidate
        >
          <Stack gap="md">
            <TextInput
              label={t('roles:rolesPage.userSearch')}
              placeholder={t('roles:rolesPage.userSearchPlaceholder')}
              leftSection={<SearchIcon />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
              }}
              data-autofocus
            />
            <UserChoices
              search={debouncedSearch}
              value={user?.id ?? null}
              onChange={(next) => {
                setUser(next);
                setErrors((current) => ({ ...current, user: false }));
              }}
            />
            {errors.user ? (
              <Text c="red.7" fz="sm" role="alert">
                {t('roles:rolesPage.userRequired')}
              </Text>
            ) : null}
            <Select
              label={t('roles:rolesPage.roleToAssign')}
              placeholder={t('roles:rolesPage.roleToAssignPlaceholder')}
              data={roleOptions}
              value={role}
              onChange={(value) => {
                setRole(value);
                setErrors((current) => ({ ...current, role: false }));
              }}
              error={errors.role ? t('errors:role.required') : undefined}
              searchable
              withAsterisk
              comboboxProps={{ withinPortal: true }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit">{t('actions.continue')}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
