import { useState, type SubmitEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  ColorInput,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LANGUAGES, TENANT_SETTING_DEFAULTS, tenantCreateSchema, type Language } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { usePageTitle } from '../shell/use-page-title';
import { suggestTenantCode } from './tenant-code';
import { validateTenantForm } from './tenant-form-errors';
import { COMMON_DIAL_CODES } from './tenant-settings-model';
import { createTenant, TENANTS_QUERY_ROOT } from './tenants-api';
import { TimeZoneField } from './time-zone-field';

interface CreateValues {
  name: string;
  code: string;
  officialName: string;
  publicUrl: string;
  withAdmin: boolean;
  adminEmail: string;
  adminFirstName: string;
  adminLastName: string;
  LANGUAGE: Language;
  COUNTRY: string;
  COUNTRY_CODE: string;
  DIAL_CODE: string;
  COLOR: string;
  TIME_ZONE: string;
}

type TextField = Exclude<keyof CreateValues, 'withAdmin' | 'LANGUAGE' | 'DIAL_CODE' | 'COLOR' | 'TIME_ZONE'>;

/** Where the schema's paths (admin.email, settings.COLOR) sit in this flat form. */
const FIELD_OF_PATH: Record<string, keyof CreateValues> = {
  'admin.email': 'adminEmail',
  'admin.firstName': 'adminFirstName',
  'admin.lastName': 'adminLastName',
};
const fieldOf = (path: string) => FIELD_OF_PATH[path] ?? path.replace(/^settings\./, '');

const INITIAL_SETTINGS = ['LANGUAGE', 'COUNTRY', 'COUNTRY_CODE', 'DIAL_CODE', 'COLOR', 'TIME_ZONE'] as const;

/** /<area>/tenants/new: identity, optional first admin (emailed a set-password code) and first settings. */
export function TenantCreatePage() {
  const { t } = useTranslation(['tenants', 'common']);
  usePageTitle(t('create.pageTitle'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isCodeTyped, setIsCodeTyped] = useState(false);
  const form = useFormState<CreateValues>({
    name: '',
    code: '',
    officialName: '',
    publicUrl: '',
    withAdmin: false,
    adminEmail: '',
    adminFirstName: '',
    adminLastName: '',
    LANGUAGE: 'en',
    COUNTRY: TENANT_SETTING_DEFAULTS.COUNTRY,
    COUNTRY_CODE: TENANT_SETTING_DEFAULTS.COUNTRY_CODE,
    DIAL_CODE: TENANT_SETTING_DEFAULTS.DIAL_CODE,
    COLOR: TENANT_SETTING_DEFAULTS.COLOR,
    TIME_ZONE: TENANT_SETTING_DEFAULTS.TIME_ZONE,
  });
  const { values } = form;
  // The form's own field names, so messages from the schema and the server land on the right input.
  const sink = {
    clearMessages: form.clearMessages,
    setMessage: (path: string, message: Parameters<typeof form.setMessage>[1]) => {
      form.setMessage(fieldOf(path), message);
    },
  };

  const create = useMutation({
    mutationFn: createTenant,
    meta: { errorDisplay: 'inline' },
    onSuccess: (tenant) => {
      notifySuccess(
        values.withAdmin
          ? t('create.createdWithAdmin', { name: tenant.name, email: values.adminEmail })
          : t('create.created', { name: tenant.name }),
      );
      void queryClient.invalidateQueries({ queryKey: TENANTS_QUERY_ROOT });
      void navigate(`../${tenant.id}`, { relative: 'path' });
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      for (const fieldError of error.fieldErrors) {
        sink.setMessage(fieldError.field.replace(/^body\./, ''), { text: fieldError.message });
      }
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    // Only settings that differ from the defaults are stored, so later default changes still reach the rest.
    const settings = Object.fromEntries(
      INITIAL_SETTINGS.filter((key) => values[key] !== TENANT_SETTING_DEFAULTS[key]).map((key) => [
        key,
        values[key],
      ]),
    );
    const parsed = validateTenantForm(sink, tenantCreateSchema, {
      name: values.name,
      code: values.code,
      officialName: values.officialName,
      publicUrl: values.publicUrl,
      settings,
      admin: values.withAdmin
        ? {
            email: values.adminEmail,
            firstName: values.adminFirstName.trim() === '' ? undefined : values.adminFirstName,
            lastName: values.adminLastName,
            language: values.LANGUAGE,
          }
        : undefined,
    });
    if (parsed) create.mutate(parsed);
  };

  const text = (name: TextField, label: string, extra: { description?: string; required?: boolean } = {}) => (
    <TextInput
      label={label}
      description={extra.description}
      withAsterisk={extra.required}
      value={values[name]}
      onChange={(event) => {
        const next = event.currentTarget.value;
        form.setField(name, next);
        if (name === 'name' && !isCodeTyped) form.setField('code', suggestTenantCode(next));
        if (name === 'code') setIsCodeTyped(next !== '');
      }}
      error={form.errorOf(name)}
    />
  );
  const hasFieldErrors = isApiError(create.error) && create.error.fieldErrors.length > 0;

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={2}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('detail.backToList')}
        </Anchor>
        <Title order={1} fz={26}>
          {t('create.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('create.subtitle')}
        </Text>
      </Stack>
      <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('create.formLabel')}>
        <Stack gap="lg">
          {create.isError && !hasFieldErrors ? (
            <Alert color="red" variant="light" role="alert" title={t('create.failed')}>
              {messageText(errorMessageFor(create.error))}
            </Alert>
          ) : null}
          <Paper withBorder radius="md" p="lg">
            <Title order={2} fz="lg" mb="md">
              {t('create.identity')}
            </Title>
            <SimpleGrid cols={2} spacing="md">
              {text('name', t('information.name'), { required: true })}
              {text('code', t('information.code'), { required: true, description: t('create.codeHint') })}
              {text('officialName', t('information.officialName'))}
              {text('publicUrl', t('information.publicUrl'), { description: t('information.publicUrlHint') })}
            </SimpleGrid>
          </Paper>
          <Paper withBorder radius="md" p="lg">
            <Title order={2} fz="lg" mb="md">
              {t('create.initialSettings')}
            </Title>
            <SimpleGrid cols={2} spacing="md">
              <Select
                label={t('settings.LANGUAGE')}
                data={LANGUAGES.map((code) => ({ value: code, label: t(`languages.${code}`) }))}
                value={values.LANGUAGE}
                onChange={(value) => {
                  const language = LANGUAGES.find((code) => code === value);
                  if (language) form.setField('LANGUAGE', language);
                }}
                allowDeselect={false}
              />
              <ColorInput
                label={t('branding.color')}
                eyeDropperButtonProps={{ 'aria-label': t('branding.eyeDropper') }}
                format="hex"
                value={values.COLOR}
                onChange={(value) => {
                  form.setField('COLOR', value);
                }}
                error={form.errorOf('COLOR')}
              />
              {text('COUNTRY', t('settings.COUNTRY'))}
              <Group grow align="flex-start">
                {text('COUNTRY_CODE', t('settings.COUNTRY_CODE'))}
                <Select
                  label={t('settings.DIAL_CODE')}
                  data={[...new Set([values.DIAL_CODE, ...COMMON_DIAL_CODES])]}
                  value={values.DIAL_CODE}
                  onChange={(value) => {
                    if (value) form.setField('DIAL_CODE', value);
                  }}
                  allowDeselect={false}
                />
              </Group>
              <TimeZoneField
                value={values.TIME_ZONE}
                onChange={(value) => {
                  form.setField('TIME_ZONE', value);
                }}
                error={form.errorOf('TIME_ZONE')}
              />
            </SimpleGrid>
          </Paper>
          <Paper withBorder radius="md" p="lg">
            <Checkbox
              label={t('create.withAdmin')}
              description={t('create.withAdminHint')}
              checked={values.withAdmin}
              onChange={(event) => {
                form.setField('withAdmin', event.currentTarget.checked);
              }}
            />
            {values.withAdmin ? (
              <SimpleGrid cols={3} spacing="md" mt="md">
                {text('adminEmail', t('create.adminEmail'), { required: true })}
                {text('adminFirstName', t('create.adminFirstName'))}
                {text('adminLastName', t('create.adminLastName'))}
              </SimpleGrid>
            ) : null}
          </Paper>
          <Group justify="flex-end">
            <Button component={Link} to=".." relative="path" variant="default">
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
