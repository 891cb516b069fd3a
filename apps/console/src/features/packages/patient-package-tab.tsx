import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { subscribeSchema, type PackageFeature, type SubscribeInput } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate } from '../../lib/format';
import { fieldMessageText, messagesForIssues, type FieldMessages } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { SubscriptionStatusBadge, useLimit, useMoney } from './package-badges';
import {
  cancelPatientPackage,
  enabledPackagesQuery,
  patientSubscriptionsQuery,
  refreshPackages,
  subscribePatient,
} from './packages-api';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function FeatureList({ features }: { features: readonly PackageFeature[] }) {
  const { t } = useTranslation('packages');
  if (features.length === 0) return <>{t('patient.noFeatures')}</>;
  return (
    <Group gap={4}>
      {features.map((feature) => (
        <Badge key={feature} variant="outline" size="sm">
          {t(`features.${feature}`)}
        </Badge>
      ))}
    </Group>
  );
}

/** Staff put the patient on an enabled package (paid at the center, with an optional receipt). */
function ChangePackageDialog({ patientId, currentId, onClose }: { patientId: string; currentId: string | null; onClose: () => void }) {
  const { t } = useTranslation('packages');
  const queryClient = useQueryClient();
  const money = useMoney();
  const offer = useQuery(enabledPackagesQuery());
  const [packageId, setPackageId] = useState<string | null>(null);
  const [receiptId, setReceiptId] = useState('');
  const [errors, setErrors] = useState<FieldMessages>({});
  const change = useMutation({
    mutationFn: (input: SubscribeInput) => subscribePatient(patientId, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (view) => {
      notifySuccess(t('patient.changed', { name: view.entitlements.package?.name ?? '' }));
      await refreshPackages(queryClient);
      onClose();
    },
  });
  const submit = () => {
    const parsed = subscribeSchema.safeParse({
      packageId: packageId ?? '',
      ...(receiptId.trim() === '' ? {} : { receiptId }),
    });
    if (!parsed.success) {
      const messages = messagesForIssues(parsed.error.issues);
      if (packageId === null) messages.packageId = { key: 'form.required' };
      setErrors(messages);
      return;
    }
    setErrors({});
    change.mutate(parsed.data);
  };
  return (
    <Modal opened onClose={onClose} title={t('patient.changeTitle')} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Select
            label={t('patient.package')}
            placeholder={t('patient.packagePlaceholder')}
            data={(offer.data?.items ?? [])
              .map((item) => ({
                value: item.id,
                // The current package again extends it from its end.
                label: `${item.name} · ${item.code} · ${money(item.priceMinor, item.currency)}${item.id === currentId ? ` · ${t('patient.extendsCurrent')}` : ''}`,
              }))}
            value={packageId}
            onChange={setPackageId}
            error={fieldMessageText(errors.packageId)}
            searchable
            withAsterisk
            data-testid="change-package-select"
          />
          <TextInput
            label={t('patient.receiptId')}
            value={receiptId}
            onChange={(event) => {
              setReceiptId(event.currentTarget.value);
            }}
            error={fieldMessageText(errors.receiptId)}
            maxLength={64}
          />
          {change.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(change.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('actions.back')}
            </Button>
            <Button type="submit" loading={change.isPending}>
              {t('patient.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A patient's package in the console: what it has now (price, end, status, features, limits,
 * wearable) and its subscriptions, newest first; staff with transaction.manage change or cancel it.
 */
export function PatientPackageTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('packages');
  const queryClient = useQueryClient();
  const money = useMoney();
  const limit = useLimit();
  const view = useQuery(patientSubscriptionsQuery(patientId));
  const [dialog, setDialog] = useState<'change' | 'cancel' | null>(null);
  const cancel = useMutation({
    mutationFn: () => cancelPatientPackage(patientId),
    meta: { errorDisplay: 'inline' },
    onSuccess: async () => {
      notifySuccess(t('patient.canceled'));
      await refreshPackages(queryClient);
      setDialog(null);
    },
  });
  if (view.isPending) return <LoadingState />;
  if (view.isError) return <ErrorState error={view.error} title={t('patient.loadFailed')} onRetry={() => void view.refetch()} />;
  const { entitlements, history } = view.data;
  const subscription = entitlements.subscription;
  const current = entitlements.package;
  return (
    <Stack gap="lg" data-testid="patient-package">
      {entitlements.packagesEnabled ? null : (
        <Alert color="blue" variant="light">
          {t('patient.notSold')}
        </Alert>
      )}
      <Group justify="space-between" align="flex-start">
        <Title order={3} fz="lg">
          {t('patient.current')}
        </Title>
        <Can permission="transaction.manage">
          <Group gap="sm">
            <Button
              variant="light"
              onClick={() => {
                setDialog('change');
              }}
            >
              {t('patient.change')}
            </Button>
            {subscription === null ? null : (
              <Button
                variant="outline"
                color="red"
                onClick={() => {
                  cancel.reset();
                  setDialog('cancel');
                }}
              >
                {t('patient.cancel')}
              </Button>
            )}
          </Group>
        </Can>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="lg">
        <Field label={t('patient.package')}>
          <span data-testid="current-package-name">{current === null ? t('patient.noPackage') : `${current.name} (${current.code})`}</span>
        </Field>
        <Field label={t('patient.price')}>{current === null ? t('none') : money(current.priceMinor, current.currency)}</Field>
        <Field label={t('patient.endsOn')}>
          {subscription?.endsAt == null ? t('patient.noEnd') : formatDate(subscription.endsAt)}
        </Field>
        <Field label={t('patient.status')}>
          {subscription === null ? t('none') : <SubscriptionStatusBadge status={subscription.status} />}
        </Field>
        <Field label={t('patient.features')}>
          <FeatureList features={entitlements.features} />
        </Field>
        <Field label={t('patient.relativeFeatures')}>
          <FeatureList features={entitlements.relativeFeatures} />
        </Field>
        <Field label={t('patient.followerLimit')}>{limit(entitlements.followerLimit)}</Field>
        <Field label={t('patient.subUserLimit')}>{limit(entitlements.subUserLimit)}</Field>
        <Field label={t('patient.wearable')}>{entitlements.hasWearable ? t('patient.yes') : t('patient.no')}</Field>
        {entitlements.addons.length === 0 ? null : (
          <Field label={t('patient.addons')}>{entitlements.addons.map((addon) => addon.package.name).join(', ')}</Field>
        )}
      </SimpleGrid>
      <Title order={3} fz="lg">
        {t('patient.history')}
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('patient.noHistory')}
        </Text>
      ) : (
        <Table striped withTableBorder data-testid="subscription-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('patient.package')}</Table.Th>
              <Table.Th>{t('patient.price')}</Table.Th>
              <Table.Th>{t('patient.startedOn')}</Table.Th>
              <Table.Th>{t('patient.endsOn')}</Table.Th>
              <Table.Th>{t('patient.status')}</Table.Th>
              <Table.Th>{t('patient.source')}</Table.Th>
              <Table.Th>{t('patient.receipt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  {item.package.name} ({item.package.code})
                </Table.Td>
                <Table.Td>{money(item.package.priceMinor, item.package.currency)}</Table.Td>
                <Table.Td>{formatDate(item.startsAt)}</Table.Td>
                <Table.Td>
                  {item.endedAt !== null ? formatDate(item.endedAt) : item.endsAt === null ? t('patient.noEnd') : formatDate(item.endsAt)}
                </Table.Td>
                <Table.Td>
                  <SubscriptionStatusBadge status={item.status} />
                </Table.Td>
                <Table.Td>{t(`patient.sources.${item.source}`)}</Table.Td>
                <Table.Td>{item.receiptId ?? t('none')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dialog === 'change' ? (
        <ChangePackageDialog
          patientId={patientId}
          currentId={current?.id ?? null}
          onClose={() => {
            setDialog(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={dialog === 'cancel'}
        title={t('patient.cancelTitle')}
        text={t('patient.cancelText')}
        confirmLabel={t('patient.cancel')}
        backLabel={t('actions.back')}
        confirmColor="red"
        isPending={cancel.isPending}
        error={cancel.error}
        onConfirm={() => {
          cancel.mutate();
        }}
        onClose={() => {
          setDialog(null);
        }}
      />
    </Stack>
  );
}
