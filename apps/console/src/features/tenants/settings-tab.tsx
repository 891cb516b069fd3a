import { useState } from 'react';
import { Autocomplete, Paper, Select, SimpleGrid, Switch, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LANGUAGES,
  SECRET_TENANT_SETTING_KEYS,
  STATUS_SETTLE_MINUTES_RANGE,
  TENANT_BLOOD_GLUCOSE_UNITS,
  INTAKE_WINDOW,
  VITALS_STORAGE,
  TENANT_THERMAL_UNITS,
  TENANT_UNIT_SYSTEMS,
  TENANT_URIC_ACID_UNITS,
  tenantSettingsUpdateSchema,
  type TenantDetail,
  type TenantSettingKey,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { useOptionalSession } from '../shell/session-context';
import { alertSettingsQuery, updateAlertSettings } from './alert-settings-api';
import { NoDataWindowField } from './no-data-window-field';
import { SecretField } from './secret-field';
import { SettleWindowField } from './settle-window-field';
import { TabForm } from './tab-form';
import { TimeZoneField } from './time-zone-field';
import { validateTenantForm } from './tenant-form-errors';
import {
  changedSettings,
  COMMON_DIAL_CODES,
  GENERAL_KEYS,
  parseSettleMinutes,
  settingValues,
  type SecretEdit,
} from './tenant-settings-model';
import { updateTenantSettings } from './tenants-api';
import { useTenantSaved } from './use-tenant-saved';

type SecretKey = (typeof SECRET_TENANT_SETTING_KEYS)[number];
type ChoiceKey = 'LANGUAGE' | 'UNIT_SYSTEM' | 'THERMAL_UNIT' | 'BLOOD_GLUCOSE_UNIT' | 'ACID_URIC_UNIT';

/** The allowed values of each choice, labelled from the catalogue (units keep their symbol). */
const CHOICES: Record<ChoiceKey, readonly string[]> = {
  LANGUAGE: LANGUAGES,
  UNIT_SYSTEM: TENANT_UNIT_SYSTEMS,
  THERMAL_UNIT: TENANT_THERMAL_UNITS,
  BLOOD_GLUCOSE_UNIT: TENANT_BLOOD_GLUCOSE_UNITS,
  ACID_URIC_UNIT: TENANT_URIC_ACID_UNITS,
};

function SettingsForm({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const saved = useTenantSaved();
  const initial = settingValues(tenant);
  const form = useFormState(initial);
  const { values } = form;
  const [secrets, setSecrets] = useState<Partial<Record<SecretKey, SecretEdit>>>({});
  // The come-down window is an alert setting: the signed-in tenant's through its own call,
  // another tenant's through the tenant screens' call.
  const otherTenantId = useOptionalSession()?.tenant?.id === tenant.id ? undefined : tenant.id;
  const queryClient = useQueryClient();
  const alertSettings = useQuery(alertSettingsQuery(otherTenantId));
  const [settleText, setSettleText] = useState<string | null>(null);
  const [settleError, setSettleError] = useState<string | undefined>(undefined);
  const storedSettle = alertSettings.data?.statusSettleMinutes;
  const settleValue = settleText ?? (storedSettle === undefined ? '' : String(storedSettle));
  const saveSettle = useMutation({
    mutationFn: (minutes: number) => {
      if (alertSettings.data === undefined) throw new Error('alert settings not loaded');
      return updateAlertSettings({ ...alertSettings.data, statusSettleMinutes: minutes }, otherTenantId);
    },
    meta: { errorDisplay: 'inline' },
    onSuccess: (next) => {
      queryClient.setQueryData(alertSettingsQuery(otherTenantId).queryKey, next);
      setSettleText(null);
    },
  });
  const save = useMutation({
    mutationFn: (input: ReturnType<typeof changedSettings>) => updateTenantSettings(tenant.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (detail) => {
      saved(detail);
      notifySuccess(t('settings.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });

  // Languages and unit systems have names; glucose and uric acid units are shown as their symbols.
  const labels: Record<string, string> = {
    en: t('languages.en'),
    vi: t('languages.vi'),
    metric: t('units.metric'),
    imperial: t('units.imperial'),
    C: t('units.C'),
    F: t('units.F'),
  };
  const choice = (key: ChoiceKey, description?: string) => (
    <Select
      label={t(`settings.${key}`)}
      description={description}
      data={CHOICES[key].map((value) => ({ value, label: labels[value] ?? value }))}
      value={values[key]}
      onChange={(value) => {
        if (value) form.setField(key, value);
      }}
      error={form.errorOf(key)}
      allowDeselect={false}
    />
  );
  const text = (key: TenantSettingKey, extra: { description?: string; rightSection?: string } = {}) => (
    <TextInput
      label={t(`settings.${key}`)}
      description={extra.description}
      rightSection={extra.rightSection}
      value={values[key]}
      onChange={(event) => {
        form.setField(key, event.currentTarget.value);
      }}
      error={form.errorOf(key)}
    />
  );
  const secret = (key: SecretKey) => (
    <SecretField
      key={key}
      label={t(`settings.${key}`)}
      masked={initial[key]}
      edit={secrets[key] ?? { mode: 'keep' }}
      onChange={(edit) => {
        setSecrets((current) => ({ ...current, [key]: edit }));
        form.clearMessage(key);
      }}
      error={form.errorOf(key)}
    />
  );

  return (
    <TabForm
      label={t('settings.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending || saveSettle.isPending}
      error={save.error ?? saveSettle.error}
      onSubmit={() => {
        const settle = settleText === null ? null : parseSettleMinutes(settleText);
        if (settle !== null && 'problem' in settle) {
          const [min, max] = STATUS_SETTLE_MINUTES_RANGE;
          setSettleError(t(`settings.${settle.problem}`, { min, max }));
          return;
        }
        const update = changedSettings(GENERAL_KEYS, initial, values, secrets);
        const parsed = validateTenantForm(form, tenantSettingsUpdateSchema, update);
        if (!parsed) return;
        save.mutate(parsed);
        if (settle !== null && settle.minutes !== storedSettle) saveSettle.mutate(settle.minutes);
      }}
    >
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="md">
          {t('settings.regionTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {/* Every field here has a one-line hint, so the inputs of a row line up. */}
          {choice('LANGUAGE', t('settings.languageHint'))}
          {text('COUNTRY', { description: t('settings.countryHint') })}
          {text('ORGANIZATION_NAME', { description: t('settings.organizationNameHint') })}
          {text('COUNTRY_CODE', { description: t('settings.countryCodeHint') })}
          <Autocomplete
            label={t('settings.DIAL_CODE')}
            description={t('settings.dialCodeHint')}
            data={[...COMMON_DIAL_CODES]}
            value={values.DIAL_CODE}
            onChange={(value) => {
              form.setField('DIAL_CODE', value);
            }}
            error={form.errorOf('DIAL_CODE')}
          />
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
        <Title order={2} fz="lg" mb="md">
          {t('settings.unitsTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 4 }} spacing="md">
          {choice('UNIT_SYSTEM')}
          {choice('THERMAL_UNIT')}
          {choice('BLOOD_GLUCOSE_UNIT')}
          {choice('ACID_URIC_UNIT')}
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="md">
          {t('settings.servicesTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {text('TAX_RATE', { description: t('settings.taxRateHint'), rightSection: '%' })}
          <NoDataWindowField
            value={values.NO_DATA_ALERT_MINUTES}
            onChange={(value) => {
              form.setField('NO_DATA_ALERT_MINUTES', value);
            }}
            error={form.errorOf('NO_DATA_ALERT_MINUTES')}
          />
          {alertSettings.isSuccess ? (
            <SettleWindowField
              value={settleValue}
              onChange={(value) => {
                setSettleText(value);
                setSettleError(undefined);
              }}
              error={settleError}
            />
          ) : null}
          {text('LATE_DATA_HORIZON_MINUTES', { description: t('settings.lateDataHint') })}
          {text('INTAKE_WINDOW_MINUTES', {
            description: t('settings.intakeWindowHint', {
              min: INTAKE_WINDOW.minMinutes,
              max: INTAKE_WINDOW.maxMinutes,
            }),
          })}
          {text('VITALS_COMPACT_AFTER_DAYS', {
            description: t('settings.compactAfterHint', {
              min: VITALS_STORAGE.minCompactAfterDays,
              max: VITALS_STORAGE.maxCompactAfterDays,
            }),
          })}
          {text('VITALS_RETENTION_DAYS', {
            description: t('settings.retentionHint', { min: VITALS_STORAGE.minRetentionDays }),
          })}
          <Switch
            mt="lg"
            label={t('settings.ALLOW_WEB_SOS_POPUP')}
            description={t('settings.sosPopupHint')}
            checked={values.ALLOW_WEB_SOS_POPUP === 'true'}
            onChange={(event) => {
              form.setField('ALLOW_WEB_SOS_POPUP', event.currentTarget.checked ? 'true' : 'false');
            }}
          />
          <Switch
            mt="lg"
            label={t('settings.APPOINTMENT_SMS')}
            description={t('settings.appointmentSmsHint')}
            checked={values.APPOINTMENT_SMS === 'true'}
            onChange={(event) => {
              form.setField('APPOINTMENT_SMS', event.currentTarget.checked ? 'true' : 'false');
            }}
          />
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="xs">
          {t('settings.integrationsTitle')}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {SECRET_TENANT_SETTING_KEYS.map((key) => secret(key))}
        </SimpleGrid>
      </Paper>
    </TabForm>
  );
}

/**
 * Settings tab: language, region and time zone, units, tax, the no-data window, the come-down window, the
 * web SOS pop-up and the integration keys.
 */
export function SettingsTab({ tenant }: { tenant: TenantDetail }) {
  return <SettingsForm key={JSON.stringify(tenant.settings)} tenant={tenant} />;
}
