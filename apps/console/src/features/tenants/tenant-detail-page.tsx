import { Anchor, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TenantDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { BrandingTab } from './branding-tab';
import { ConnectionsTab } from './connections-tab';
import { EmailTemplatesTab } from './email-templates-tab';
import { GatewaysTab } from './gateways-tab';
import { InformationTab } from './information-tab';
import { PaymentsTab } from './payments-tab';
import { SecurityTab } from './security-tab';
import { SettingsTab } from './settings-tab';
import { ConnectionTypeBadge, TenantStatusBadge } from './tenant-badges';
import { tenantDetailQuery } from './tenants-api';

/** The tabs of a tenant (spec §2: information, branding, settings, security, email template, connections) its SMS and call gateways, and its payment configuration. */
export const TENANT_TABS = [
  'information',
  'branding',
  'settings',
  'security',
  'email',
  'connections',
  'gateways',
  'payments',
] as const;
export type TenantTab = (typeof TENANT_TABS)[number];

function isTenantTab(value: string | null): value is TenantTab {
  return value !== null && (TENANT_TABS as readonly string[]).includes(value);
}

function TenantTabs({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: TenantTab = isTenantTab(requested) ? requested : 'information';
  const panels: Record<TenantTab, React.JSX.Element> = {
    information: <InformationTab tenant={tenant} />,
    branding: <BrandingTab tenant={tenant} />,
    settings: <SettingsTab tenant={tenant} />,
    security: <SecurityTab tenant={tenant} />,
    email: <EmailTemplatesTab tenant={tenant} />,
    connections: <ConnectionsTab tenant={tenant} />,
    gateways: <GatewaysTab tenant={tenant} />,
    payments: <PaymentsTab tenant={tenant} />,
  };
  return (
    // The open tab is in the address (?tab=branding) so it survives a reload and can be linked to.
    <Tabs
      value={tab}
      onChange={(value) => {
        if (isTenantTab(value))
          setSearchParams(value === 'information' ? {} : { tab: value }, { replace: true });
      }}
      keepMounted={false}
      variant="outline"
    >
      <Tabs.List>
        {TENANT_TABS.map((name) => (
          <Tabs.Tab key={name} value={name}>
            {t(`detail.tabs.${name}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {TENANT_TABS.map((name) => (
        <Tabs.Panel key={name} value={name} pt="lg">
          {panels[name]}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

/** /<area>/tenants/:tenantId: one tenant, its tabs read-only without tenant.update. */
export function TenantDetailPage() {
  const { t } = useTranslation('tenants');
  const { tenantId = '' } = useParams();
  const tenant = useQuery(tenantDetailQuery(tenantId));
  usePageTitle(tenant.data?.name ?? t('detail.pageTitle'));

  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={4}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('detail.backToList')}
        </Anchor>
        <Group gap="sm" align="center" data-testid="tenant-header">
          <Title order={1} fz={26}>
            {tenant.data?.name ?? t('detail.pageTitle')}
          </Title>
          {tenant.data ? (
            <>
              <TenantStatusBadge status={tenant.data.status} />
              <ConnectionTypeBadge type={tenant.data.connectionType} />
            </>
          ) : null}
        </Group>
        {tenant.data ? (
          <Text c="dimmed" fz="sm">
            {t('detail.subtitle', { code: tenant.data.code })}
          </Text>
        ) : null}
      </Stack>
      {tenant.isPending ? <LoadingState /> : null}
      {tenant.isError ? (
        <ErrorState
          error={tenant.error}
          title={t('detail.loadFailed')}
          onRetry={() => void tenant.refetch()}
        />
      ) : null}
      {tenant.isSuccess ? <TenantTabs tenant={tenant.data} /> : null}
    </Stack>
  );
}
