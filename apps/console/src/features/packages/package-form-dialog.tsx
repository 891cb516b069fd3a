import { useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CURRENCIES,
  PACKAGE_FEATURES,
  PACKAGE_KINDS,
  PACKAGE_LEVELS,
  PACKAGE_PLANS,
  type PackageFeature,
  type PackageInput,
  type ServicePackage,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import {
  fieldMessageText,
  fieldOfError,
  isFormLevelError,
  serverFieldMessages,
  type FieldMessages,
} from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import {
  emptyPackageValues,
  packageInputOf,
  valuesOfPackage,
  type LimitField,
  type PackageFormValues,
} from './package-form-values';
import { createPackage, refreshPackages, updatePackage } from './packages-api';

/** The API's refusals that belong to one field. */
const FIELD_OF_CODE = {
  'package.codeExists': 'code',
  'package.nameExists': 'name',
  'package.currencyLocked': 'currency',
  'package.defaultLocked': 'price',
} as const;

/**
 * Creates or edits a package or add-on with every field of the API's input: the price typed in
 * the currency's major unit and sent in integer minor units, -1 as an "Unlimited" switch, the
 * features for the patient and for its followers and sub-users. Problems show under their field,
 * the server's included (a taken Package ID, a taken name).
 */
export function PackageFormDialog({
  opened,
  editing,
  onClose,
}: {
  opened: boolean;
  /** The package being edited; null: a new one. */
  editing: ServicePackage | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('packages');
  const queryClient = useQueryClient();
  const [values, setValues] = useState<PackageFormValues>(() =>
    editing === null ? emptyPackageValues() : valuesOfPackage(editing),
  );
  const [errors, setErrors] = useState<FieldMessages>({});
  const save = useMutation({
    mutationFn: (input: PackageInput) => (editing === null ? createPackage(input) : updatePackage(editing.id, input)),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (saved) => {
      notifySuccess(t(editing === null ? 'form.created' : 'form.saved', { code: saved.code }));
      await refreshPackages(queryClient);
      onClose();
    },
    onError: (error) => {
      const messages = serverFieldMessages(error, { priceMinor: 'price' });
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) messages[field] = { text: messageText(errorMessageFor(error)) };
      setErrors(messages);
    },
  });
  const set = <K extends keyof PackageFormValues>(key: K, value: PackageFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
  };
  const submit = () => {
    const result = packageInputOf(values);
    if (result.messages) {
      setErrors(result.messages);
      return;
    }
    setErrors({});
    save.mutate(result.input);
  };
  const errorOf = (field: string) => fieldMessageText(errors[field]);
  const isAddon = values.kind === 'ADDON';
  const limitLabels: Record<LimitField, { label: string; unlimited: string }> = {
    durationMonths: { label: t('form.duration'), unlimited: t('form.durationUnlimited') },
    useLimit: { label: t('form.useLimit'), unlimited: t('form.useLimitUnlimited') },
    storageCount: { label: t('form.storageCount'), unlimited: t('form.storageUnlimited') },
    followerLimit: { label: t('form.followerLimit'), unlimited: t('form.followerUnlimited') },
    subUserLimit: { label: t('form.subUserLimit'), unlimited: t('form.subUserUnlimited') },
  };

  const limitField = (field: LimitField): ReactNode => {
    const limit = values[field];
    const labels = limitLabels[field];
    return (
      <Stack gap={4} key={field}>
        <NumberInput
          label={labels.label}
          value={limit.isUnlimited ? '' : limit.value}
          onChange={(value) => {
            set(field, { ...limit, value: String(value) });
          }}
          disabled={limit.isUnlimited}
          allowDecimal={false}
          allowNegative={false}
          min={0}
          error={errorOf(field)}
          data-testid={`package-${field}`}
        />
        <Switch
          label={labels.unlimited}
          checked={limit.isUnlimited}
          onChange={(event) => {
            const { checked } = event.currentTarget;
            set(field, { ...limit, isUnlimited: checked });
          }}
          data-testid={`package-${field}-unlimited`}
        />
      </Stack>
    );
  };

  const featureGroup = (field: 'userFeatures' | 'relativeFeatures') => (
    <Checkbox.Group
      label={t(field === 'userFeatures' ? 'form.userFeatures' : 'form.relativeFeatures')}
      value={values[field]}
      onChange={(chosen) => {
        set(
          field,
          PACKAGE_FEATURES.filter((feature) => chosen.includes(feature)),
        );
      }}
      error={errorOf(field)}
      data-testid={`package-${field}`}
    >
      <Stack gap={6} mt={6}>
        {PACKAGE_FEATURES.map((feature: PackageFeature) => (
          <Checkbox key={feature} value={feature} label={t(`features.${feature}`)} />
        ))}
      </Stack>
    </Checkbox.Group>
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing === null ? t('form.createTitle') : t('form.editTitle', { code: editing.code })}
      centered
      size="xl"
    >
      <form
        noValidate
        data-testid="package-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('form.code')}
              description={t('form.codeHint')}
              value={values.code}
              onChange={(event) => {
                set('code', event.currentTarget.value);
              }}
              error={errorOf('code')}
              maxLength={32}
              withAsterisk
            />
            <TextInput
              label={t('form.name')}
              value={values.name}
              onChange={(event) => {
                set('name', event.currentTarget.value);
              }}
              error={errorOf('name')}
              maxLength={120}
              withAsterisk
            />
            <Select
              label={t('form.kind')}
              data={PACKAGE_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))}
              value={values.kind}
              onChange={(value) => {
                const kind = PACKAGE_KINDS.find((option) => option === value);
                if (kind) setValues((current) => ({ ...current, kind, ...(kind === 'ADDON' ? { level: null, plan: null } : {}) }));
              }}
              disabled={editing !== null}
              allowDeselect={false}
              error={errorOf('kind')}
              withAsterisk
            />
            <Select
              label={t('form.currency')}
              data={[...CURRENCIES]}
              value={values.currency}
              onChange={(value) => {
                const currency = CURRENCIES.find((option) => option === value);
                if (currency) set('currency', currency);
              }}
              allowDeselect={false}
              error={errorOf('currency')}
              withAsterisk
            />
            <TextInput
              label={t('form.price')}
              description={t('form.priceHint', { currency: values.currency })}
              value={values.price}
              inputMode="decimal"
              onChange={(event) => {
                set('price', event.currentTarget.value);
              }}
              error={errorOf('price')}
              withAsterisk
            />
            {isAddon ? null : (
              <Select
                label={t('form.level')}
                placeholder={t('form.noChoice')}
                data={PACKAGE_LEVELS.map((level) => ({ value: level, label: t(`level.${level}`) }))}
                value={values.level}
                onChange={(value) => {
                  set('level', PACKAGE_LEVELS.find((option) => option === value) ?? null);
                }}
                clearable
                error={errorOf('level')}
              />
            )}
            {isAddon ? null : (
              <Select
                label={t('form.plan')}
                placeholder={t('form.noChoice')}
                data={PACKAGE_PLANS.map((plan) => ({ value: plan, label: t(`plan.${plan}`) }))}
                value={values.plan}
                onChange={(value) => {
                  set('plan', PACKAGE_PLANS.find((option) => option === value) ?? null);
                }}
                clearable
                error={errorOf('plan')}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {(['durationMonths', 'useLimit', 'storageCount', 'followerLimit', 'subUserLimit'] as const).map(limitField)}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {featureGroup('userFeatures')}
            {featureGroup('relativeFeatures')}
          </SimpleGrid>
          <TextInput
            label={t('form.icon')}
            value={values.icon}
            onChange={(event) => {
              set('icon', event.currentTarget.value);
            }}
            error={errorOf('icon')}
            maxLength={64}
          />
          <Textarea
            label={t('form.description')}
            value={values.description}
            onChange={(event) => {
              set('description', event.currentTarget.value);
            }}
            error={errorOf('description')}
            autosize
            minRows={2}
            maxLength={2000}
          />
          {isFormLevelError(save.error, FIELD_OF_CODE) ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing === null ? t('form.create') : t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
