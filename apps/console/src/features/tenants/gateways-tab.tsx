import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Paper, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CALL_GATEWAYS,
  messageGatewayTestSchema,
  messageGatewayUpdateSchema,
  SMS_GATEWAYS,
  type MessageGateway,
  type MessageGatewayChannel,
  type MessageGatewayProvider,
  type MessageGatewayTestResult,
  type MessageGatewayUpdate,
  type TenantDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePermissions } from '../shell/permissions';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import { saveTenantGateway, tenantGatewaysQuery, testTenantGateway } from './tenants-api';

interface GatewayValues {
  provider: MessageGatewayProvider;
  sender: string;
  accountSid: string;
  /** Secrets start empty: typing replaces the stored value, empty keeps it. */
  authToken: string;
  apiKey: string;
  secretKey: string;
}

const valuesOf = (stored: MessageGateway): GatewayValues => ({
  provider: stored.provider,
  sender: stored.sender,
  accountSid: stored.credentials.accountSid ?? '',
  authToken: '',
  apiKey: '',
  secretKey: '',
});

/** The PUT body: credentials only when something was typed, or when the provider is new. */
function inputOf(values: GatewayValues, stored: MessageGateway): MessageGatewayUpdate | Record<string, unknown> {
  const keep = values.provider === stored.provider;
  switch (values.provider) {
    case 'local':
      return { provider: 'local' };
    case 'twilio': {
      const isTyped = values.authToken !== '' || values.accountSid !== (stored.credentials.accountSid ?? '');
      return {
        provider: 'twilio',
        sender: values.sender,
        ...(keep && !isTyped ? {} : { credentials: { accountSid: values.accountSid, authToken: values.authToken } }),
      };
    }
    case 'esms': {
      const isTyped = values.apiKey !== '' || values.secretKey !== '';
      return {
        provider: 'esms',
        sender: values.sender,
        ...(keep && !isTyped ? {} : { credentials: { apiKey: values.apiKey, secretKey: values.secretKey } }),
      };
    }
  }
}

function GatewayTest({ tenantId, channel }: { tenantId: string; channel: MessageGatewayChannel }) {
  const { t } = useTranslation(['tenants', 'common']);
  const form = useFormState({ to: '' });
  const [result, setResult] = useState<MessageGatewayTestResult | null>(null);
  const test = useMutation({
    mutationFn: (to: string) => testTenantGateway(tenantId, channel, to),
    meta: { errorDisplay: 'inline' },
    onSuccess: setResult,
  });
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('gateways.testTo')}
          description={t('gateways.testHint')}
          placeholder="+84901234567"
          value={form.values.to}
          onChange={(event) => {
            form.setField('to', event.currentTarget.value);
            setResult(null);
          }}
          error={form.errorOf('to')}
          w={260}
        />
        <Button
          variant="default"
          loading={test.isPending}
          onClick={() => {
            const input = validateTenantForm(form, messageGatewayTestSchema, form.values);
            if (input) test.mutate(input.to);
          }}
        >
          {channel === 'SMS' ? t('gateways.sendTest') : t('gateways.callTest')}
        </Button>
      </Group>
      {result?.ok === true ? (
        <Alert color="teal" variant="light" role="status" data-testid={`gateway-test-${channel}`}>
          {t('gateways.testAccepted', { provider: t(`gateways.providers.${result.provider}`, { defaultValue: result.provider }), id: result.providerId ?? '' })}
        </Alert>
      ) : null}
      {result?.ok === false ? (
        <Alert color="red" variant="light" role="alert" title={t('gateways.testRefused')} data-testid={`gateway-test-${channel}`}>
          {result.error}
        </Alert>
      ) : null}
      {test.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('gateways.testFailed')}
        </Alert>
      ) : null}
    </Stack>
  );
}

function GatewayForm({ tenantId, stored }: { tenantId: string; stored: MessageGateway }) {
  const { t } = useTranslation(['tenants', 'common']);
  const queryClient = useQueryClient();
  const { can } = usePermissions();
  const form = useFormState<GatewayValues>(valuesOf(stored));
  const { values } = form;
  const channel = stored.channel;
  const providers = channel === 'SMS' ? SMS_GATEWAYS : CALL_GATEWAYS;
  const isSameProvider = values.provider === stored.provider;
  const storedSecret = (key: string) => (isSameProvider ? stored.credentials[key] : undefined);
  const save = useMutation({
    mutationFn: (input: MessageGatewayUpdate) => saveTenantGateway(tenantId, channel, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      queryClient.setQueryData(tenantGatewaysQuery(tenantId).queryKey, (current: MessageGateway[] | undefined) =>
        (current ?? []).map((gateway) => (gateway.channel === channel ? answer : gateway)),
      );
      notifySuccess(t('gateways.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  const secretField = (key: 'authToken' | 'apiKey' | 'secretKey') => {
    const masked = storedSecret(key);
    return (
      <PasswordInput
        label={t(`gateways.fields.${key}`)}
        description={masked === undefined ? undefined : t('gateways.secretStored', { masked })}
        placeholder={masked === undefined ? '' : t('gateways.secretKeep')}
        value={values[key]}
        onChange={(event) => {
          form.setField(key, event.currentTarget.value);
        }}
        error={form.errorOf(`credentials.${key}`)}
        autoComplete="new-password"
        visibilityToggleButtonProps={{ 'aria-label': t('settings.secretToggle') }}
      />
    );
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid={`gateway-${channel}`}>
      <Stack gap="md">
        <Title order={3} fz="md">
          {t(`gateways.channel.${channel}`)}
        </Title>
        <TabForm
          label={t(`gateways.channel.${channel}`)}
          formRef={form.formRef}
          isSaving={save.isPending}
          error={save.error}
          onSubmit={() => {
            const input = validateTenantForm(form, messageGatewayUpdateSchema, inputOf(values, stored));
            if (input) save.mutate(input);
          }}
        >
          <Radio.Group
            label={t('gateways.provider')}
            value={values.provider}
            onChange={(value) => {
              const provider = providers.find((item) => item === value);
              if (provider) form.setValues({ ...valuesOf(stored), provider, sender: provider === stored.provider ? stored.sender : '', accountSid: provider === stored.provider ? values.accountSid : '' });
            }}
          >
            <Stack gap="xs" mt="xs">
              {providers.map((provider) => (
                <Radio key={provider} value={provider} label={t(`gateways.providers.${provider}`)} description={t(`gateways.providerHelp.${provider}`)} />
              ))}
            </Stack>
          </Radio.Group>
          {values.provider === 'twilio' ? (
            <Stack gap="sm">
              <TextInput
                label={t('gateways.fields.twilioSender')}
                placeholder="+15005550006"
                value={values.sender}
                onChange={(event) => {
                  form.setField('sender', event.currentTarget.value);
                }}
                error={form.errorOf('sender')}
              />
              <TextInput
                label={t('gateways.fields.accountSid')}
                placeholder="AC…"
                value={values.accountSid}
                onChange={(event) => {
                  form.setField('accountSid', event.currentTarget.value);
                }}
                error={form.errorOf('credentials.accountSid')}
              />
              {secretField('authToken')}
            </Stack>
          ) : null}
          {values.provider === 'esms' ? (
            <Stack gap="sm">
              <TextInput
                label={t('gateways.fields.brandName')}
                value={values.sender}
                onChange={(event) => {
                  form.setField('sender', event.currentTarget.value);
                }}
                error={form.errorOf('sender')}
              />
              {secretField('apiKey')}
              {secretField('secretKey')}
            </Stack>
          ) : null}
        </TabForm>
        {stored.callbackUrl !== null && isSameProvider ? (
          <Stack gap={4}>
            <Text fz="sm" fw={500}>
              {t('gateways.callbackUrl')}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ overflowWrap: 'anywhere' }}>{stored.callbackUrl}</Code>
              <CopyButton value={stored.callbackUrl}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="default" onClick={copy}>
                    {copied ? t('gateways.copied') : t('gateways.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text fz="xs" c="dimmed">
              {stored.provider === 'local' ? null : t(`gateways.callbackHelp.${stored.provider}`)}
            </Text>
          </Stack>
        ) : null}
        {can('tenant.update') ? <GatewayTest tenantId={tenantId} channel={channel} /> : null}
      </Stack>
    </Paper>
  );
}

/**
 * SMS and call gateways tab: which gateway sends the tenant's SMS and places its calls (local
 * recorder, Twilio, eSMS brand name), credentials write-only, a test send, and the address the
 * gateway reports deliveries to.
 */
export function GatewaysTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation(['tenants', 'common']);
  const stored = useQuery(tenantGatewaysQuery(tenant.id));
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} fz="lg">
          {t('gateways.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('gateways.intro')}
        </Text>
      </Stack>
      {stored.isPending ? <LoadingState /> : null}
      {stored.isError ? <ErrorState error={stored.error} title={t('gateways.loadFailed')} onRetry={() => void stored.refetch()} /> : null}
      {stored.isSuccess
        ? stored.data.map((gateway) => <GatewayForm key={`${gateway.channel}-${gateway.updatedAt ?? 'default'}`} tenantId={tenant.id} stored={gateway} />)
        : null}
    </Stack>
  );
}
