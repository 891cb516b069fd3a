import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../ui/kit';
import { publicTenantQuery } from './auth-api';
import { normaliseTenantCode } from './rules';
import { useTenantManifest } from './tenant-manifest';

/** The tenant code (required, spec §5), with the tenant's name under it once the code is known. */
export function TenantField(props: { value: string; onChange: (value: string) => void; error?: string | undefined }) {
  const { t } = useTranslation();
  const code = normaliseTenantCode(props.value);
  const tenant = useQuery({ ...publicTenantQuery(code ?? ''), enabled: code !== undefined });
  const found = tenant.data && code !== undefined ? t('tenant.found', { name: tenant.data.name }) : undefined;
  // The app installs in the branding of the tenant the code names.
  useTenantManifest(tenant.data && code !== undefined ? tenant.data.code : undefined);
  return (
    <TextField
      label={t('tenant.label')}
      hint={found ?? t('tenant.hint')}
      error={props.error}
      name="tenant"
      autoCapitalize="none"
      autoComplete="organization"
      value={props.value}
      onChange={(event) => { props.onChange(event.target.value); }}
    />
  );
}
