import { ColorInput, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { TENANT_LOGO_KINDS, tenantSettingsUpdateSchema, type TenantDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { BrandPreview } from './brand-preview';
import { LogoUploadCard } from './logo-upload-card';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import { BRANDING_KEYS, changedSettings, FONT_CHOICES, settingValues } from './tenant-settings-model';
import { updateTenantSettings } from './tenants-api';
import { useTenantSaved } from './use-tenant-saved';

/** Brand colours offered as swatches: the product's own and a few that keep white text readable. */
const SWATCHES = ['#0B7285', '#1971C2', '#5F3DC4', '#C2255C', '#E8590C', '#2B8A3E', '#364FC7', '#212529'];

function BrandingForm({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const saved = useTenantSaved();
  const initial = settingValues(tenant);
  const form = useFormState({
    COLOR: initial.COLOR,
    FONT: initial.FONT,
    LOGO: initial.LOGO,
    ICON: initial.ICON,
  });
  const { values } = form;
  const save = useMutation({
    mutationFn: (input: ReturnType<typeof changedSettings>) => updateTenantSettings(tenant.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (detail) => {
      saved(detail);
      notifySuccess(t('branding.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  const fonts = [...new Set([values.FONT, ...FONT_CHOICES])].filter((font) => font !== '');

  return (
    <TabForm
      label={t('branding.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={() => {
        const update = changedSettings(BRANDING_KEYS, initial, values);
        const parsed = validateTenantForm(form, tenantSettingsUpdateSchema, update);
        if (parsed) save.mutate(parsed);
      }}
    >
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={2} fz="lg">
              {t('branding.themeTitle')}
            </Title>
            <ColorInput
              label={t('branding.color')}
              description={t('branding.colorHint')}
              eyeDropperButtonProps={{ 'aria-label': t('branding.eyeDropper') }}
              format="hex"
              swatches={SWATCHES}
              value={values.COLOR}
              onChange={(value) => {
                form.setField('COLOR', value);
              }}
              error={form.errorOf('COLOR')}
              withAsterisk
            />
            <Select
              label={t('branding.font')}
              description={t('branding.fontHint')}
              data={fonts}
              value={values.FONT}
              onChange={(value) => {
                if (value) form.setField('FONT', value);
              }}
              error={form.errorOf('FONT')}
              allowDeselect={false}
              searchable
            />
            <TextInput
              label={t('branding.logoUrl')}
              description={t('branding.logoUrlHint')}
              value={values.LOGO}
              onChange={(event) => {
                form.setField('LOGO', event.currentTarget.value);
              }}
              error={form.errorOf('LOGO')}
            />
            <TextInput
              label={t('branding.iconUrl')}
              value={values.ICON}
              onChange={(event) => {
                form.setField('ICON', event.currentTarget.value);
              }}
              error={form.errorOf('ICON')}
            />
          </Stack>
        </Paper>
        <Stack gap="xs">
          <Title order={2} fz="lg">
            {t('branding.previewTitle')}
          </Title>
          <Text fz="sm" c="dimmed">
            {t('branding.previewHint')}
          </Text>
          <BrandPreview
            color={values.COLOR}
            font={values.FONT}
            name={initial.ORGANIZATION_NAME || tenant.name}
            horizontalLogo={tenant.logos.horizontal}
            squareLogo={tenant.logos.square}
          />
        </Stack>
      </SimpleGrid>
    </TabForm>
  );
}

/** Branding tab: the logos and QR code (uploaded at once), then colour and font (saved together). */
export function BrandingTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Title order={2} fz="lg">
          {t('branding.imagesTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {TENANT_LOGO_KINDS.map((kind) => (
            <LogoUploadCard key={kind} tenant={tenant} kind={kind} />
          ))}
        </SimpleGrid>
      </Stack>
      {/* Keyed by the settings only: uploading a logo must not throw away a colour being chosen. */}
      <BrandingForm key={JSON.stringify(tenant.settings)} tenant={tenant} />
    </Stack>
  );
}
