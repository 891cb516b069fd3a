import type { SubmitEvent } from 'react';
import {
  Alert,
  Button,
  Divider,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { staffCreateSchema, staffUpdateSchema, type StaffDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { addNewPasswordIssues, ALWAYS_REFINE, usePasswordRule } from '../auth/password-rule';
import { levelOptionsQuery } from '../levels/levels-api';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { DoctorsField } from './doctors-field';
import { InitialPasswordFields } from './initial-password-fields';
import { useRoleOptions } from './role-options';
import { createStaff, refreshStaff, updateStaff } from './staff-api';
import {
  baseRoleOf,
  placementOf,
  roleIssues,
  staffPayload,
  staffValuesOf,
  EMPTY_STAFF,
  type StaffValues,
} from './staff-form-values';

/** Server answers that belong under one field. */
const FIELD_OF_CODE: Partial<Record<string, string>> = {
  'account.emailExists': 'email',
  'account.phoneExists': 'phone',
  'role.required': 'role',
  'role.notFound': 'role',
  'role.cannotGrant': 'role',
  'staff.centerRequired': 'centerId',
  'center.notFound': 'centerId',
  'staff.scopeRequired': 'scopeId',
  'scope.notFound': 'scopeId',
  'staff.assistantNeedsDoctor': 'doctorIds',
  'staff.doctorNotFound': 'doctorIds',
  'staff.tenantRequired': 'tenantIds',
  'staff.couldNotAssignTenant': 'tenantIds',
  'staff.mainAdminLocked': 'role',
};

/** Create or edit a staff account (spec §3 "Admin or staff"): the fields follow the chosen role. */
export function StaffForm({ staff, initialRole }: { staff: StaffDetail | null; initialRole: string | null }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const rule = usePasswordRule();
  const { scopes, centers } = useOrgReach();
  const tenants = useQuery(levelOptionsQuery()).data?.tenants ?? [];
  const { groups, customRoles } = useRoleOptions({
    withPlatformRoles: staff === null,
    keep: staff ? staffValuesOf(staff).role : null,
  });
  const form = useFormState<StaffValues>(
    staff ? staffValuesOf(staff) : { ...EMPTY_STAFF, role: initialRole },
  );
  const { values } = form;
  const base = baseRoleOf(values.role, customRoles);
  const placement = placementOf(base);

  const save = useMutation({
    mutationFn: (body: ReturnType<typeof staffPayload>) =>
      staff ? updateStaff(staff.id, body) : createStaff(body),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t(staff ? 'staff.form.saved' : 'staff.form.created', { name: saved.fullName }));
      refreshStaff(queryClient);
      void navigate(staff ? '..' : `../${saved.id}`, { relative: 'path' });
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const payload = staffPayload(values, base);
    const schema = staff
      ? staffUpdateSchema
      : staffCreateSchema.safeExtend({ confirmation: z.string() }).superRefine((value, context) => {
          // The initial password is optional; once typed, the tenant's rule and the confirmation apply.
          if (values.password !== '')
            addNewPasswordIssues(context, rule, {
              password: value.password,
              confirmation: value.confirmation,
              passwordPath: 'password',
              confirmationPath: 'confirmation',
            });
        }, ALWAYS_REFINE);
    const parsed = form.validate(schema, { ...payload, confirmation: values.confirmation });
    const issues = roleIssues(values, base);
    // The contract's "email or phone" rule would read as a generic "not valid": say what is missing.
    if (payload.email === null && payload.phone === null)
      issues.email = { key: 'org:staff.form.contactRequired' };
    for (const [path, message] of Object.entries(issues)) form.setMessage(path, message);
    if (parsed && Object.keys(issues).length === 0 && !save.isPending) save.mutate(payload);
  };

  const text = (name: 'firstName' | 'middleName' | 'lastName' | 'email' | 'phone') => ({
    value: values[name],
    error: form.errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      form.setField(name, event.currentTarget.value);
    },
  });
  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('staff.form.label')}>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {showAlert ? (
            <Alert color="red" variant="light" role="alert" title={t('staff.form.saveFailed')}>
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('staff.form.firstName')}
              withAsterisk
              autoComplete="off"
              data-autofocus
              {...text('firstName')}
            />
            <TextInput label={t('staff.form.middleName')} autoComplete="off" {...text('middleName')} />
            <TextInput
              label={t('staff.form.lastName')}
              withAsterisk
              autoComplete="off"
              {...text('lastName')}
            />
            <TextInput
              label={t('staff.form.email')}
              description={t('staff.form.contactHint')}
              type="email"
              autoComplete="off"
              {...text('email')}
            />
            <TextInput
              label={t('staff.form.phone')}
              description={t('staff.form.contactHint')}
              inputMode="tel"
              autoComplete="off"
              {...text('phone')}
            />
          </SimpleGrid>
          <Divider label={t('staff.form.sectionRole')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <Select
              label={t('staff.form.role')}
              data={groups}
              value={values.role}
              onChange={(value) => {
                form.setField('role', value);
              }}
              error={form.errorOf('role')}
              searchable
              withAsterisk
            />
            {placement === 'center' || placement === 'tenantOrCenter' ? (
              <Select
                label={t('staff.form.center')}
                placeholder={
                  placement === 'tenantOrCenter' ? t('staff.form.wholeTenant') : t('staff.form.chooseCenter')
                }
                data={centers.map((center) => ({ value: center.id, label: center.name }))}
                value={values.centerId}
                onChange={(value) => {
                  form.setField('centerId', value);
                }}
                error={form.errorOf('centerId')}
                searchable
                clearable={placement === 'tenantOrCenter'}
                withAsterisk={placement === 'center'}
              />
            ) : null}
            {placement === 'scope' ? (
              <Select
                label={t('staff.form.scope')}
                data={scopesInTreeOrder(scopes).map((scope) => ({
                  value: scope.id,
                  label: scopePath(scopes, scope.id),
                }))}
                value={values.scopeId}
                onChange={(value) => {
                  form.setField('scopeId', value);
                }}
                error={form.errorOf('scopeId')}
                searchable
                withAsterisk
              />
            ) : null}
            {base === 'SYSTEM_ADMIN' ? (
              <MultiSelect
                label={t('staff.tenants')}
                data={tenants.map((tenant) => ({ value: tenant.id, label: tenant.name }))}
                value={values.tenantIds}
                onChange={(ids) => {
                  form.setField('tenantIds', ids);
                }}
                error={form.errorOf('tenantIds')}
                searchable
                withAsterisk
              />
            ) : null}
          </SimpleGrid>
          {base === 'DOCTOR_ASSISTANT' ? (
            <DoctorsField
              centerId={values.centerId}
              value={values.doctorIds}
              known={staff?.doctors ?? []}
              error={form.errorOf('doctorIds')}
              onChange={(ids) => {
                form.setField('doctorIds', ids);
              }}
            />
          ) : null}
          {staff ? null : (
            <InitialPasswordFields
              password={values.password}
              confirmation={values.confirmation}
              passwordError={form.errorOf('password')}
              confirmationError={form.errorOf('confirmation')}
              onPasswordChange={(value) => {
                form.setField('password', value);
              }}
              onConfirmationChange={(value) => {
                form.setField('confirmation', value);
              }}
            />
          )}
          <Group justify="flex-end">
            <Button component={Link} to=".." relative="path" variant="default">
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {staff ? tc('actions.save') : t('staff.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
