import { Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { TENANT_STATUSES, tenantUpdateSchema, type TenantDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { InfoTile } from '../shell/info-tile';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import { updateTenant } from './tenants-api';
import { useTenantSaved } from './use-tenant-saved';

function IdentityForm({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const saved = useTenantSaved();
  const form = useFormState({
    name: tenant.name,
    officialName: tenant.officialName,
    publicUrl: tenant.publicUrl,
    status: tenant.status,
  });
  const { values } = form;
  const save = useMutation({
    mutationFn: (input: typeof values) => updateTenant(tenant.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (detail) => {
      saved(detail);
      notifySuccess(t('information.saved', { name: detail.name }));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  const text = (name: 'name' | 'officialName' | 'publicUrl', description?: string) => (
    <TextInput
      label={t(`information.${name}`)}
      description={description}
      withAsterisk={name === 'name'}
      value={values[name]}
      onChange={(event) => {
        form.setField(name, event.currentTarget.value);
      }}
      error={form.errorOf(name)}
    />
  );

  return (
    <TabForm
      label={t('information.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={() => {
        const parsed = validateTenantForm(form, tenantUpdateSchema, values);
        if (parsed) save.mutate(parsed);
      }}
    >
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={2} spacing="md">
          {/* Each field has a one-line hint, so the inputs of a row line up. */}
          {text('name', t('information.nameHint'))}
          <TextInput
            label={t('information.code')}
            description={t('information.codeReadOnly')}
            value={tenant.code}
            readOnly
            variant="filled"
          />
          {text('officialName', t('information.officialNameHint'))}
          {text('publicUrl', t('information.publicUrlHint'))}
          <Select
            label={t('list.status')}
            description={t('information.statusHint')}
            data={TENANT_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
            value={values.status}
            onChange={(value) => {
              const status = TENANT_STATUSES.find((item) => item === value);
              if (status) form.setField('status', status);
            }}
            allowDeselect={false}
          />
        </SimpleGrid>
      </Paper>
    </TabForm>
  );
}

/** Information tab: identity (the login code never changes), dates and the tenant's counts. */
export function InformationTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const count = (value: number | undefined) => (value === undefined ? '—' : String(value));
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} fz="lg">
          {t('information.counts')}
        </Title>
        <SimpleGrid cols={4} spacing="md" data-testid="tenant-counts">
          <InfoTile label={t('counts.healthCenters')} value={count(tenant.counts?.healthCenters)} />
          <InfoTile label={t('counts.admins')} value={count(tenant.counts?.admins)} />
          <InfoTile label={t('counts.doctors')} value={count(tenant.counts?.doctors)} />
          <InfoTile label={t('counts.patients')} value={count(tenant.counts?.patients)} />
        </SimpleGrid>
        {tenant.counts === null ? (
          <Text fz="sm" c="orange.8">
            {t('list.countsUnavailable')}
          </Text>
        ) : null}
        <Text fz="sm" c="dimmed" data-testid="tenant-dates">
          {t('information.dates', {
            created: formatDateTime(tenant.createdAt),
            updated: formatDateTime(tenant.updatedAt),
          })}
        </Text>
      </Stack>
      <IdentityForm key={tenant.updatedAt} tenant={tenant} />
    </Stack>
  );
}
