import { useMemo, type SubmitEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CLINICAL_PERMISSIONS,
  isRoleBelow,
  roleInputSchema,
  rolesBelow,
  rolesNotAbove,
  TENANT_ROLES,
  type CustomRole,
  type Permission,
  type RoleCode,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { usePermissions } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { PermissionPicker } from './permission-picker';
import { createRole, customRoleQuery, ROLES_QUERY_ROOT, updateRole } from './roles-api';

interface RoleValues {
  name: string;
  description: string;
  baseRole: RoleCode | null;
  permissions: Set<Permission>;
}

const sameSet = (left: ReadonlySet<string>, right: readonly string[]) =>
  left.size === right.length && right.every((item) => left.has(item));

function RoleForm({ role }: { role: CustomRole | null }) {
  const { t } = useTranslation(['common', 'roles']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { can, permissions: held } = usePermissions();
  // What one holds, and the clinical permissions, which administrators hand out without holding them.
  const grantable = useMemo(() => new Set<string>([...held, ...CLINICAL_PERMISSIONS]), [held]);
  const callerRole = useSession().user.role;
  // The role hierarchy (contracts roles.ts), as the server applies it: a role based at or above
  // the caller's own is theirs to view only; a new base role may be their own rank, never above,
  // and for a role someone holds it must be below (it would raise its holders).
  const isOutOfReach = role !== null && !isRoleBelow(role, callerRole);
  const isReadOnly = !can('permission.update') || isOutOfReach;
  const baseRoles = isOutOfReach
    ? TENANT_ROLES
    : (role !== null && role.userCount > 0 ? rolesBelow(callerRole) : rolesNotAbove(callerRole)).filter(
        (code) => TENANT_ROLES.includes(code),
      );
  const form = useFormState<RoleValues>({
    name: role?.name ?? '',
    description: role?.description ?? '',
    baseRole: role?.baseRole ?? null,
    permissions: new Set(role?.permissions ?? []),
  });
  const { values } = form;

  const save = useMutation({
    mutationFn: (input: Parameters<typeof createRole>[0]) =>
      role ? updateRole(role.id, input) : createRole(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(
        role ? t('roles:rolesPage.saved', { name: saved.name }) : t('roles:rolesPage.created', { name: saved.name }),
      );
      void queryClient.invalidateQueries({ queryKey: ROLES_QUERY_ROOT });
      void navigate('..', { relative: 'path' });
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'role.exists')
        form.setMessage('name', { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isReadOnly || save.isPending) return;
    const parsed = form.validate(roleInputSchema, {
      ...values,
      baseRole: values.baseRole ?? undefined,
      permissions: [...values.permissions],
    });
    if (parsed) save.mutate(parsed);
  };

  // Holders of the role are signed out when what it grants changes (spec §6): say so before saving.
  const isGrantChanged =
    role !== null && (values.baseRole !== role.baseRole || !sameSet(values.permissions, role.permissions));
  const showAlert =
    save.isError &&
    !(isApiError(save.error) && (save.error.code === 'role.exists' || save.error.fieldErrors.length > 0));

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('roles:rolesPage.editorLabel')}>
      <fieldset disabled={isReadOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          {isOutOfReach && can('permission.update') ? (
            <Alert color="gray" variant="light" data-testid="role-out-of-reach">
              {t('roles:rolesPage.outOfReach')}
            </Alert>
          ) : null}
          {showAlert ? (
            <Alert color="red" variant="light" role="alert" title={t('roles:rolesPage.saveFailed')}>
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Paper withBorder radius="md" p="lg">
            <SimpleGrid cols={2} spacing="md">
              <TextInput
                label={t('roles:rolesPage.name')}
                value={values.name}
                onChange={(event) => {
                  form.setField('name', event.currentTarget.value);
                }}
                error={form.errorOf('name')}
                withAsterisk
                data-autofocus
              />
              <Select
                label={t('roles:rolesPage.baseRole')}
                description={t('roles:rolesPage.baseRoleHint')}
                placeholder={t('roles:rolesPage.baseRolePlaceholder')}
                data={baseRoles.map((code) => ({ value: code, label: t(`roles.${code}`) }))}
                value={values.baseRole}
                onChange={(value) => {
                  form.setField('baseRole', baseRoles.find((code) => code === value) ?? null);
                }}
                error={form.errorOf('baseRole')}
                allowDeselect={false}
                withAsterisk
              />
            </SimpleGrid>
            <Textarea
              mt="md"
              label={t('roles:rolesPage.description')}
              value={values.description}
              onChange={(event) => {
                form.setField('description', event.currentTarget.value);
              }}
              error={form.errorOf('description')}
              autosize
              minRows={2}
            />
          </Paper>
          <PermissionPicker
            value={values.permissions}
            onChange={(next) => {
              form.setField('permissions', next);
            }}
            grantable={grantable}
            isReadOnly={isReadOnly}
            error={form.messages.permissions ? t('roles:rolesPage.permissionsRequired') : undefined}
          />
          {role !== null && isGrantChanged && role.userCount > 0 ? (
            <Alert color="orange" variant="light" data-testid="holders-signed-out">
              {t('roles:rolesPage.holdersSignedOut', { count: role.userCount })}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button component={Link} to=".." relative="path" variant="default">
              {isReadOnly ? t('actions.back') : t('actions.cancel')}
            </Button>
            {isReadOnly ? null : (
              <Button type="submit" loading={save.isPending}>
                {role ? t('actions.save') : t('roles:rolesPage.create')}
              </Button>
            )}
          </Group>
        </Stack>
      </fieldset>
    </form>
  );
}

/** /<area>/roles/new and /<area>/roles/:roleId: create or edit a custom role (read-only without permission.update). */
export function RoleEditorPage() {
  const { t } = useTranslation(['common', 'roles']);
  const { roleId } = useParams();
  const isNew = roleId === undefined;
  const role = useQuery({ ...customRoleQuery(roleId ?? ''), enabled: !isNew });
  const title = isNew ? t('roles:rolesPage.newTitle') : (role.data?.name ?? t('roles:rolesPage.editTitle'));
  usePageTitle(title);

  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={2}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('roles:rolesPage.backToList')}
        </Anchor>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('roles:rolesPage.editorIntro')}
        </Text>
      </Stack>
      {isNew ? <RoleForm role={null} /> : null}
      {!isNew && role.isPending ? <LoadingState /> : null}
      {!isNew && role.isError ? (
        <ErrorState
          error={role.error}
          title={t('roles:rolesPage.roleLoadFailed')}
          onRetry={() => void role.refetch()}
        />
      ) : null}
      {!isNew && role.isSuccess ? <RoleForm key={role.data.id} role={role.data} /> : null}
    </Stack>
  );
}
