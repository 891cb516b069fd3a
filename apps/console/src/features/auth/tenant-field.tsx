import { Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { tenantListQuery } from './auth-api';

/**
 * The tenant to sign in to: picked from the public list, or typed as a code when the list cannot
 * be loaded or is empty, so a listing problem never blocks signing in.
 */
export function TenantField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const tenants = useQuery(tenantListQuery());
  const canType = tenants.isError || (tenants.isSuccess && tenants.data.length === 0);

  if (canType) {
    return (
      <TextInput
        label={t('login.tenant')}
        description={t('login.tenantCodeHint')}
        placeholder={t('login.tenantCodePlaceholder')}
        value={value}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
        error={error}
        autoComplete="organization"
        withAsterisk
      />
    );
  }

  return (
    <Select
      label={t('login.tenant')}
      placeholder={tenants.isPending ? t('login.tenantLoading') : t('login.tenantPlaceholder')}
      data={(tenants.data ?? []).map((tenant) => ({ value: tenant.code, label: tenant.name }))}
      value={value === '' ? null : value}
      onChange={(next) => {
        onChange(next ?? '');
      }}
      disabled={tenants.isPending}
      error={error}
      searchable
      // Focus moves here after a failed submit; an opened list would cover the field's message.
      openOnFocus={false}
      nothingFoundMessage={t('login.tenantNoMatch')}
      allowDeselect={false}
      withAsterisk
    />
  );
}
