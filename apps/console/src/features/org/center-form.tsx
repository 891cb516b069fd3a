import type { SubmitEvent } from 'react';
import { useState } from 'react';
import { Alert, Button, Divider, Group, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CENTER_ADMIN_ROLES,
  centerDetailsInputSchema,
  centerFormSchema,
  type CenterDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type z } from 'zod';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { errorMessageFor } from '../../api/error-reaction';
import type { FieldMessage } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { AdminMultiSelect, AdminSelect, type KnownUser } from './admin-picker';
import { CenterLogoField, logoProblem } from './center-logo-field';
import {
  centerFormData,
  centerSchemaInput,
  centerValuesOf,
  EMPTY_CENTER,
  type CenterValues,
} from './center-form-values';
import { centerLogoUrl, createCenter, updateCenter, updateCenterDetails } from './centers-api';
import { refreshOrg } from './scopes-api';

export type CenterFormMode =
  { kind: 'create' } | { kind: 'edit'; center: CenterDetail } | { kind: 'details'; center: CenterDetail };

/** Contract rules whose generic message would mislead ("choose one of the options" for a bad email). */
const MESSAGE_OF_FIELD: Partial<Record<string, FieldMessage>> = {
  email: { key: 'form.emailInvalid' },
  website: { key: 'org:centers.form.websiteInvalid' },
  phonePrefix: { key: 'org:centers.form.prefixInvalid' },
  supportAdminIds: { key: 'org:centers.form.mainNotSupport' },
};

/** Server answers that belong under one field. */
const FIELD_OF_CODE: Partial<Record<string, string>> = {
  'center.nameExists': 'name',
  'center.invalidAdmin': 'mainAdminId',
  'scope.notFound': 'scopeId',
  'file.tooLarge': 'logo',
  'file.unsupportedType': 'logo',
};

type TextField = Exclude<keyof CenterValues, 'scopeId' | 'mainAdminId' | 'supportAdminIds'>;

/**
 * Create or edit a health center (spec §3 fields). Tenant-wide admins set everything, the logo and
 * the admins included — the main admin is changed here only (spec §6); a center's own admin edits
 * the details (the call open to them).
 */
export function CenterForm({ mode }: { mode: CenterFormMode }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { scopes } = useOrgReach();
  const center = mode.kind === 'create' ? null : mode.center;
  const isDetailsOnly = mode.kind === 'details';
  const form = useFormState<CenterValues>(center ? centerValuesOf(center) : EMPTY_CENTER);
  const { values } = form;
  const [logo, setLogo] = useState<File | null>(null);
  const known: KnownUser[] = center
    ? [...(center.mainAdmin ? [center.mainAdmin] : []), ...center.supportAdmins]
    : [];

  const save = useMutation({
    mutationFn: (body: FormData | z.output<typeof centerDetailsInputSchema>) =>
      body instanceof FormData
        ? center
          ? updateCenter(center.id, body)
          : createCenter(body)
        : updateCenterDetails(center?.id ?? '', body),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t(center ? 'centers.form.saved' : 'centers.form.created', { name: saved.name }));
      refreshOrg(queryClient);
      void navigate(center ? '..' : `../${saved.id}`, { relative: 'path' });
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const schema = isDetailsOnly ? centerDetailsInputSchema : centerFormSchema;
    const input = centerSchemaInput(values);
    const checked = schema.safeParse(input);
    const parsed = form.validate(schema, input);
    if (!checked.success)
      for (const issue of checked.error.issues) {
        const path = issue.path.join('.');
        const message = MESSAGE_OF_FIELD[path];
        if (message) form.setMessage(path, message);
      }
    const problem = logo ? logoProblem(logo) : null;
    if (problem) form.setMessage('logo', { key: `org:centers.form.${problem}` });
    if (!parsed || problem) return;
    if (isDetailsOnly) save.mutate(centerDetailsInputSchema.parse(input));
    else save.mutate(centerFormData(centerFormSchema.parse(input), logo));
  };

  const text = (name: TextField) => ({
    value: values[name],
    error: form.errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      form.setField(name, event.currentTarget.value);
    },
  });
  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('centers.form.label')}>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {showAlert ? (
            <Alert color="red" variant="light" role="alert" title={t('centers.form.saveFailed')}>
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <SimpleGrid cols={3} spacing="md">
            <TextInput label={t('centers.form.name')} withAsterisk data-autofocus {...text('name')} />
            <TextInput
              label={t('centers.form.type')}
              placeholder={t('centers.form.typePlaceholder')}
              {...text('type')}
            />
            <TextInput label={t('centers.form.representative')} {...text('representative')} />
          </SimpleGrid>
          <Divider label={t('centers.form.sectionContact')} labelPosition="left" />
          <SimpleGrid cols={3} spacing="md">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                label={t('centers.form.phonePrefix')}
                w={90}
                inputMode="tel"
                {...text('phonePrefix')}
              />
              <TextInput
                label={t('centers.form.phoneNumber')}
                description={t('centers.form.digitsHint')}
                inputMode="numeric"
                style={{ flex: 1 }}
                {...text('phoneNumber')}
              />
            </Group>
            <TextInput
              label={t('centers.form.hotline')}
              description={t('centers.form.digitsHint')}
              inputMode="numeric"
              {...text('hotline')}
            />
            <TextInput label={t('centers.form.email')} type="email" {...text('email')} />
            <TextInput label={t('centers.form.website')} placeholder="https://" {...text('website')} />
          </SimpleGrid>
          <Divider label={t('centers.form.sectionPlace')} labelPosition="left" />
          <TextInput label={t('centers.form.address')} {...text('address')} />
          <SimpleGrid cols={3} spacing="md">
            <TextInput
              label={t('centers.form.lat')}
              description={t('centers.form.latHint')}
              inputMode="decimal"
              {...text('lat')}
            />
            <TextInput
              label={t('centers.form.lng')}
              description={t('centers.form.lngHint')}
              inputMode="decimal"
              {...text('lng')}
            />
            {isDetailsOnly ? null : (
              <Select
                label={t('centers.form.scope')}
                placeholder={t('centers.form.noScope')}
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
                clearable
                nothingFoundMessage={t('scopes.noMatch')}
              />
            )}
          </SimpleGrid>
          {isDetailsOnly ? null : (
            <>
              <Divider label={t('centers.form.sectionLogo')} labelPosition="left" />
              <CenterLogoField
                file={logo}
                currentUrl={center?.hasLogo ? centerLogoUrl(center.id, center.updatedAt) : null}
                error={form.errorOf('logo')}
                onChange={(file) => {
                  setLogo(file);
                  form.clearMessage('logo');
                }}
              />
              <Divider label={t('centers.form.sectionAdmins')} labelPosition="left" />
              <SimpleGrid cols={2} spacing="md">
                <AdminSelect
                  label={t('centers.form.mainAdmin')}
                  description={t('centers.form.mainAdminHint')}
                  roles={CENTER_ADMIN_ROLES}
                  known={known}
                  value={values.mainAdminId}
                  onChange={(id) => {
                    form.setField('mainAdminId', id);
                    if (id !== null)
                      form.setField(
                        'supportAdminIds',
                        values.supportAdminIds.filter((other) => other !== id),
                      );
                  }}
                  error={form.errorOf('mainAdminId')}
                  isRequired
                />
                <AdminMultiSelect
                  label={t('centers.form.supportAdmins')}
                  description={t('centers.form.supportAdminsHint')}
                  roles={CENTER_ADMIN_ROLES}
                  known={known}
                  value={values.supportAdminIds}
                  onChange={(ids) => {
                    form.setField('supportAdminIds', ids);
                  }}
                  exclude={values.mainAdminId === null ? [] : [values.mainAdminId]}
                  error={form.errorOf('supportAdminIds')}
                />
              </SimpleGrid>
            </>
          )}
          <Group justify="flex-end">
            <Button component={Link} to=".." relative="path" variant="default">
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {center ? tc('actions.save') : t('centers.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
