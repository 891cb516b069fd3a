import { useState } from 'react';
import { Alert, Button, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TENANT_CONNECTION_KINDS,
  TENANT_CONNECTION_TYPES,
  tenantConnectionsInputSchema,
  type TenantConnectionKind,
  type TenantConnections,
  type TenantDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { ConnectionFieldset } from './connection-fieldset';
import {
  canTestConnectionsAlone,
  connectionsInput,
  connectionsValues,
  isConnectionFailure,
  type ConnectionResult,
  type ConnectionsValues,
  type ConnectionValues,
} from './connections-model';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import {
  saveTenantConnections,
  TENANTS_QUERY_ROOT,
  tenantConnectionsQuery,
  testTenantConnections,
} from './tenants-api';

type Results = Partial<Record<TenantConnectionKind, ConnectionResult>>;

/** Field errors about an input of a connection (as opposed to "this server did not answer"). */
const namesInputs = (error: unknown) =>
  isApiError(error) && error.fieldErrors.some((item) => /connections\.\d+\.\w+$/.test(item.field));

function ConnectionsForm({ tenant, stored }: { tenant: TenantDetail; stored: TenantConnections }) {
  const { t } = useTranslation(['tenants', 'common']);
  const queryClient = useQueryClient();
  const form = useFormState<ConnectionsValues>(connectionsValues(stored));
  const { values } = form;
  const [results, setResults] = useState<Results>({});
  const [failure, setFailure] = useState<unknown>(null);
  const canTest = canTestConnectionsAlone(useSession().user.role);

  const onFailure = (error: unknown) => {
    setFailure(error);
    setResults({});
    if (!isConnectionFailure(error)) form.showServerErrors(error);
  };
  const test = useMutation({
    mutationFn: () => testTenantConnections(tenant.id, connectionsInput(values)),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      setFailure(null);
      setResults(Object.fromEntries(answer.connections.map((item) => [item.kind, item])));
    },
    onError: onFailure,
  });
  const save = useMutation({
    mutationFn: () => saveTenantConnections(tenant.id, connectionsInput(values)),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      setFailure(null);
      queryClient.setQueryData(tenantConnectionsQuery(tenant.id).queryKey, answer);
      // The type shows in the tenant's header and the list.
      void queryClient.invalidateQueries({ queryKey: TENANTS_QUERY_ROOT });
      notifySuccess(t('connections.saved', { type: t(`connectionType.${answer.connectionType}`) }));
    },
    onError: onFailure,
  });

  /** Checks the form with the contract before asking the server to reach anything. */
  const run = (mutation: typeof test | typeof save) => {
    if (test.isPending || save.isPending) return;
    setFailure(null);
    if (validateTenantForm(form, tenantConnectionsInputSchema, connectionsInput(values))) mutation.mutate();
  };
  const change = (kind: TenantConnectionKind, next: Partial<ConnectionValues>) => {
    form.setField('connections', { ...values.connections, [kind]: { ...values.connections[kind], ...next } });
    const index = TENANT_CONNECTION_KINDS.indexOf(kind);
    for (const field of Object.keys(next)) form.clearMessage(`connections.${String(index)}.${field}`);
    // A changed connection has not been tested as it now is, and the set's failure is old news.
    setResults((current) => ({ ...current, [kind]: undefined }));
    if (isConnectionFailure(failure)) setFailure(null);
  };
  const isDedicated = values.connectionType === 'DEDICATED';

  return (
    <TabForm
      label={t('connections.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={failure}
      isErrorShownOnFields={isConnectionFailure(failure) || namesInputs(failure)}
      saveLabel={isDedicated ? t('connections.testAndSave') : t('common:actions.save')}
      onSubmit={() => {
        run(save);
      }}
      extraActions={
        isDedicated && canTest ? (
          <Button
            variant="default"
            loading={test.isPending}
            onClick={() => {
              run(test);
            }}
          >
            {t('connections.test')}
          </Button>
        ) : null
      }
    >
      <Paper withBorder radius="md" p="lg">
        <Radio.Group
          label={t('connections.type')}
          description={t('connections.typeHint')}
          value={values.connectionType}
          onChange={(value) => {
            const type = TENANT_CONNECTION_TYPES.find((item) => item === value);
            if (type) form.setField('connectionType', type);
            setResults({});
            setFailure(null);
          }}
        >
          <Stack gap="sm" mt="sm">
            {TENANT_CONNECTION_TYPES.map((type) => (
              <Radio
                key={type}
                value={type}
                label={t(`connectionType.${type}`)}
                description={t(`connections.typeHelp.${type}`)}
              />
            ))}
          </Stack>
        </Radio.Group>
      </Paper>
      {isDedicated ? (
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {t('connections.dedicatedHint')} {t('connections.targetRules')}
          </Text>
          {isConnectionFailure(failure) && isApiError(failure) ? (
            <Alert
              color="red"
              variant="light"
              role="alert"
              title={failure.serverMessage}
              data-testid="connections-failed"
            >
              {t('connections.failedHint')}
            </Alert>
          ) : null}
          {TENANT_CONNECTION_KINDS.map((kind, index) => (
            <ConnectionFieldset
              key={kind}
              kind={kind}
              index={index}
              values={values.connections[kind]}
              onChange={(next) => {
                change(kind, next);
              }}
              errorOf={form.errorOf}
              result={results[kind]}
              hasStoredPassword={stored.connections.some((item) => item.kind === kind && item.hasPassword)}
            />
          ))}
        </Stack>
      ) : null}
    </TabForm>
  );
}

/** Connections tab: SHARED, or DEDICATED with three tested databases; passwords are never shown back. */
export function ConnectionsTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation(['tenants', 'common']);
  const stored = useQuery(tenantConnectionsQuery(tenant.id));
  return (
    <Stack gap="lg">
      <Title order={2} fz="lg">
        {t('connections.title')}
      </Title>
      {stored.isPending ? <LoadingState /> : null}
      {stored.isError ? (
        <ErrorState
          error={stored.error}
          title={t('connections.loadFailed')}
          onRetry={() => void stored.refetch()}
        />
      ) : null}
      {stored.isSuccess ? (
        <ConnectionsForm key={stored.dataUpdatedAt} tenant={tenant} stored={stored.data} />
      ) : null}
    </Stack>
  );
}
