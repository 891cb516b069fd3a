import { useState } from 'react';
import { Alert, Anchor, Button, Code, Group, NumberInput, Paper, PasswordInput, Radio, Select, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CURRENCY_DECIMALS,
  PAYMENT_CURRENCIES,
  PAYMENT_METHODS,
  verifyPartnerSchema,
  verifyPaymentMethodSchema,
  type PaymentCurrency,
  type PaymentMethod,
  type PaymentMethodInformation,
  type PaymentTestResult,
  type TenantDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePermissions } from '../shell/permissions';
import { issuePartnerKey, paymentInformationQuery, saveTaxRate, startTestPayment, verifyPartner, verifyPaymentMethod } from './payments-api';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';

const STEP_INDEX = { PARTNER: 0, METHOD: 1, TAX: 2, DONE: 3 } as const;

function PartnerStep({ tenant, information, onSaved }: { tenant: TenantDetail; information: PaymentMethodInformation; onSaved: () => void }) {
  const { t } = useTranslation(['tenants', 'common']);
  const { can } = usePermissions();
  const form = useFormState({ partnerId: information.partner.partnerId ?? tenant.id, apiKey: '' });
  const issue = useMutation({
    mutationFn: () => issuePartnerKey(tenant.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: (key) => {
      form.setValues({ partnerId: key.partnerId, apiKey: key.apiKey });
    },
  });
  const verify = useMutation({
    mutationFn: verifyPartner,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('payments.partner.verified'));
      onSaved();
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  return (
    <TabForm
      label={t('payments.partner.title')}
      formRef={form.formRef}
      isSaving={verify.isPending}
      error={verify.error}
      saveLabel={t('payments.partner.submit')}
      extraActions={
        can('tenant.create') ? (
          <Button variant="default" loading={issue.isPending} onClick={() => { issue.mutate(); }}>
            {t('payments.partner.issue')}
          </Button>
        ) : undefined
      }
      onSubmit={() => {
        const input = validateTenantForm(form, verifyPartnerSchema, { ...form.values, tenantId: tenant.id });
        if (input) verify.mutate(input);
      }}
    >
      <Text fz="sm" c="dimmed">
        {t('payments.partner.intro')}
      </Text>
      <TextInput
        label={t('payments.partner.partnerId')}
        description={t('payments.partner.partnerIdHint', { id: tenant.id })}
        value={form.values.partnerId}
        onChange={(event) => { form.setField('partnerId', event.currentTarget.value); }}
        error={form.errorOf('partnerId')}
      />
      <PasswordInput
        label={t('payments.partner.apiKey')}
        value={form.values.apiKey}
        onChange={(event) => { form.setField('apiKey', event.currentTarget.value); }}
        error={form.errorOf('apiKey')}
        autoComplete="off"
        visibilityToggleButtonProps={{ 'aria-label': t('settings.secretToggle') }}
      />
    </TabForm>
  );
}

interface MethodValues {
  method: PaymentMethod;
  accessKey: string;
  secretKey: string;
  shareKey: string;
  publishableKey: string;
  callbackUrl: string;
}

function MethodStep({ tenant, information, onSaved }: { tenant: TenantDetail; information: PaymentMethodInformation; onSaved: (answer: PaymentMethodInformation) => void }) {
  const { t } = useTranslation(['tenants', 'common']);
  const form = useFormState<MethodValues>({
    method: information.method ?? 'SANDBOX',
    accessKey: information.accessKey ?? '',
    // Keys are write-only: the stored ones show masked under the fields and must be typed again to change the method.
    secretKey: '',
    shareKey: '',
    publishableKey: information.publishableKey ?? '',
    callbackUrl: information.callbackUrl ?? '',
  });
  const { values } = form;
  const save = useMutation({
    mutationFn: verifyPaymentMethod,
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      notifySuccess(t('payments.method.saved'));
      onSaved(answer);
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });
  const isStored = information.method === values.method;
  const text = (field: 'accessKey' | 'publishableKey' | 'callbackUrl', placeholder?: string) => (
    <TextInput
      label={t(`payments.method.fields.${values.method}.${field}`)}
      placeholder={placeholder}
      value={values[field]}
      onChange={(event) => { form.setField(field, event.currentTarget.value); }}
      error={form.errorOf(field)}
    />
  );
  const secret = (field: 'secretKey' | 'shareKey') => {
    const masked = isStored ? information[field] : null;
    return (
      <PasswordInput
        label={t(`payments.method.fields.${values.method}.${field}`)}
        description={masked === null ? undefined : t('payments.method.stored', { masked })}
        value={values[field]}
        onChange={(event) => { form.setField(field, event.currentTarget.value); }}
        error={form.errorOf(field)}
        autoComplete="new-password"
        visibilityToggleButtonProps={{ 'aria-label': t('settings.secretToggle') }}
      />
    );
  };
  return (
    <TabForm
      label={t('payments.method.title')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={save.error}
      saveLabel={t('payments.method.submit')}
      onSubmit={() => {
        const input = validateTenantForm(form, verifyPaymentMethodSchema, { ...values, tenantId: tenant.id });
        if (input) save.mutate(input);
      }}
    >
      <Radio.Group
        label={t('payments.method.method')}
        value={values.method}
        onChange={(value) => {
          const method = PAYMENT_METHODS.find((item) => item === value);
          if (method) form.setValues({ ...values, method, accessKey: method === information.method ? (information.accessKey ?? '') : '', secretKey: '', shareKey: '' });
        }}
      >
        <Stack gap="xs" mt="xs">
          {PAYMENT_METHODS.map((method) => (
            <Radio key={method} value={method} label={t(`payments.methods.${method}`)} description={t(`payments.methodHelp.${method}`)} />
          ))}
        </Stack>
      </Radio.Group>
      {values.method === 'VNPAY' ? (
        <Stack gap="sm">
          {text('accessKey', 'ABCD1234')}
          {secret('secretKey')}
        </Stack>
      ) : null}
      {values.method === 'STRIPE' ? (
        <Stack gap="sm">
          {text('accessKey', 'acct_…')}
          {secret('secretKey')}
          {secret('shareKey')}
          {text('publishableKey', 'pk_…')}
        </Stack>
      ) : null}
      {text('callbackUrl', 'https://')}
      {information.notificationUrl !== null && isStored ? (
        <Stack gap={4}>
          <Text fz="sm" fw={500}>
            {t('payments.method.notificationUrl')}
          </Text>
          <Code style={{ overflowWrap: 'anywhere' }} data-testid="payment-notification-url">
            {information.notificationUrl}
          </Code>
          <Text fz="xs" c="dimmed">
            {t(`payments.method.notificationHelp.${values.method}`, { defaultValue: '' })}
          </Text>
        </Stack>
      ) : null}
    </TabForm>
  );
}

function TaxStep({ tenant, information, onSaved }: { tenant: TenantDetail; information: PaymentMethodInformation; onSaved: (answer: PaymentMethodInformation) => void }) {
  const { t } = useTranslation(['tenants', 'common']);
  const [percent, setPercent] = useState<number | string>(information.taxRate === null ? '' : information.taxRate / 100);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (rate: number) => saveTaxRate(tenant.id, rate),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      notifySuccess(t('payments.tax.saved'));
      onSaved(answer);
    },
  });
  return (
    <TabForm
      label={t('payments.tax.title')}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={() => {
        const value = typeof percent === 'number' ? percent : Number.NaN;
        if (!Number.isFinite(value) || value < 0 || value > 100) {
          setError(t('payments.tax.invalid'));
          return;
        }
        setError(null);
        save.mutate(Math.round(value * 100));
      }}
    >
      <NumberInput
        label={t('payments.tax.rate')}
        description={t('payments.tax.hint')}
        value={percent}
        onChange={setPercent}
        min={0}
        max={100}
        decimalScale={2}
        suffix=" %"
        error={error}
        w={220}
      />
    </TabForm>
  );
}

function TestPayment({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation(['tenants', 'common']);
  const [amount, setAmount] = useState<number | string>(10_000);
  const [currency, setCurrency] = useState<PaymentCurrency>('VND');
  const [result, setResult] = useState<PaymentTestResult | null>(null);
  const start = useMutation({
    mutationFn: () => startTestPayment(tenant.id, Math.round(Number(amount) * 10 ** CURRENCY_DECIMALS[currency]), currency),
    meta: { errorDisplay: 'inline' },
    onSuccess: setResult,
  });
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <NumberInput label={t('payments.test.amount')} value={amount} onChange={setAmount} min={0} decimalScale={CURRENCY_DECIMALS[currency]} w={180} />
        <Select label={t('payments.test.currency')} data={[...PAYMENT_CURRENCIES]} value={currency} onChange={(value) => { setCurrency(PAYMENT_CURRENCIES.find((item) => item === value) ?? 'VND'); }} allowDeselect={false} w={110} />
        <Button variant="default" loading={start.isPending} onClick={() => { start.mutate(); }}>
          {t('payments.test.start')}
        </Button>
      </Group>
      {result === null ? null : (
        <Alert color="teal" variant="light" role="status">
          {t('payments.test.started', { orderId: result.orderId })}{' '}
          <Anchor href={result.redirectUrl} target="_blank" rel="noopener noreferrer">
            {t('payments.test.open')}
          </Anchor>
        </Alert>
      )}
      {start.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('payments.test.failed')}
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * Payments tab: the payment configuration wizard (spec §2: partner verification, then the payment
 * provider's keys, then tax), keys masked once saved, and a test payment when it is complete.
 */
export function PaymentsTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation(['tenants', 'common']);
  const { can } = usePermissions();
  const queryClient = useQueryClient();
  const stored = useQuery(paymentInformationQuery(tenant.id));
  const [shown, setShown] = useState<number | null>(null);
  const refresh = () => {
    setShown(null);
    void queryClient.invalidateQueries({ queryKey: paymentInformationQuery(tenant.id).queryKey });
  };
  const update = (answer: PaymentMethodInformation) => {
    setShown(null);
    queryClient.setQueryData(paymentInformationQuery(tenant.id).queryKey, answer);
  };
  if (stored.isPending) return <LoadingState />;
  if (stored.isError) return <ErrorState error={stored.error} title={t('payments.loadFailed')} onRetry={() => void stored.refetch()} />;
  const information = stored.data;
  const reached = STEP_INDEX[information.step];
  const active = shown ?? reached;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} fz="lg">
          {t('payments.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('payments.intro')}
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="lg">
        <Stepper active={active} onStepClick={(step) => { if (step <= reached) setShown(step); }} allowNextStepsSelect={false}>
          <Stepper.Step label={t('payments.steps.partner')} description={information.partner.status === 'VERIFIED' ? t('payments.partner.statusVerified') : t('payments.partner.statusNotVerified')}>
            <PartnerStep key={information.partner.verifiedAt ?? 'none'} tenant={tenant} information={information} onSaved={refresh} />
          </Stepper.Step>
          <Stepper.Step label={t('payments.steps.method')} description={information.method === null ? undefined : t(`payments.methods.${information.method}`)}>
            <MethodStep key={`${information.method ?? 'none'}-${information.methodVerifiedAt ?? ''}`} tenant={tenant} information={information} onSaved={update} />
          </Stepper.Step>
          <Stepper.Step label={t('payments.steps.tax')} description={information.taxRate === null ? undefined : `${(information.taxRate / 100).toString()} %`}>
            <TaxStep key={String(information.taxRate)} tenant={tenant} information={information} onSaved={update} />
          </Stepper.Step>
          <Stepper.Completed>
            <Stack gap="md" data-testid="payments-done">
              <Alert color="teal" variant="light">
                {t('payments.done', { method: information.method === null ? '' : t(`payments.methods.${information.method}`), rate: ((information.taxRate ?? 0) / 100).toString() })}
              </Alert>
              {can('tenant.update') ? <TestPayment tenant={tenant} /> : null}
            </Stack>
          </Stepper.Completed>
        </Stepper>
      </Paper>
    </Stack>
  );
}
