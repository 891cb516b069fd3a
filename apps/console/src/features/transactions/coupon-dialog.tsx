import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { COUPON_KINDS, CURRENCIES, type CouponInput } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import {
  fieldMessageText,
  fieldOfError,
  isFormLevelError,
  serverFieldMessages,
  type FieldMessages,
} from '../../lib/form-errors';
import { displayTimeZone } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { DateField } from '../shell/date-field';
import { couponInputOf, emptyCouponValues, type CouponFormValues } from './coupon-form-values';
import { createCoupon, refreshTransactions } from './transactions-api';

const FIELD_OF_CODE = { 'coupon.codeExists': 'code' } as const;

/**
 * A new coupon: its code, a percentage or an amount in a currency (sent as basis points or minor
 * units), its first and last day, and its number of uses or unlimited. Problems show under their
 * field, the server's included (a taken code).
 */
export function CouponDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['payments', 'common']);
  const queryClient = useQueryClient();
  const zone = displayTimeZone();
  const [values, setValues] = useState<CouponFormValues>(emptyCouponValues);
  const [errors, setErrors] = useState<FieldMessages>({});
  const save = useMutation({
    mutationFn: (input: CouponInput) => createCoupon(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (saved) => {
      notifySuccess(t('transactions.coupons.form.created', { code: saved.code }));
      await refreshTransactions(queryClient);
      onClose();
    },
    onError: (error) => {
      const messages = serverFieldMessages(error, {
        value: values.kind === 'PERCENT' ? 'percent' : 'amount',
      });
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field !== undefined) messages[field] = { text: messageText(errorMessageFor(error)) };
      setErrors(messages);
    },
  });
  const set = <K extends keyof CouponFormValues>(key: K, value: CouponFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
  };
  const errorOf = (field: string) => fieldMessageText(errors[field]);
  const submit = () => {
    const result = couponInputOf(values, zone);
    if (result.messages) {
      setErrors(result.messages);
      return;
    }
    setErrors({});
    save.mutate(result.input);
  };
  const isPercent = values.kind === 'PERCENT';

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('transactions.coupons.form.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:actions.cancel') }}
      size="lg"
    >
      <form
        noValidate
        data-testid="coupon-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('transactions.coupons.form.code')}
            description={t('transactions.coupons.form.codeHint')}
            value={values.code}
            onChange={(event) => {
              set('code', event.currentTarget.value.toUpperCase());
            }}
            error={errorOf('code')}
            maxLength={32}
            withAsterisk
            data-autofocus
          />
          <Stack gap={4}>
            <SegmentedControl
              aria-label={t('transactions.coupons.form.kind')}
              data={COUPON_KINDS.map((kind) => ({
                value: kind,
                label: t(`transactions.coupons.kinds.${kind}`),
              }))}
              value={values.kind}
              onChange={(value) => {
                const kind = COUPON_KINDS.find((option) => option === value);
                if (kind) set('kind', kind);
              }}
            />
          </Stack>
          {isPercent ? (
            <TextInput
              label={t('transactions.coupons.form.percent')}
              description={t('transactions.coupons.form.percentHint')}
              value={values.percent}
              inputMode="decimal"
              rightSection="%"
              onChange={(event) => {
                set('percent', event.currentTarget.value);
              }}
              error={errorOf('percent')}
              withAsterisk
            />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('transactions.coupons.form.amount')}
                description={t('transactions.coupons.form.amountHint', { currency: values.currency })}
                value={values.amount}
                inputMode="decimal"
                onChange={(event) => {
                  set('amount', event.currentTarget.value);
                }}
                error={errorOf('amount')}
                withAsterisk
              />
              <Select
                label={t('transactions.coupons.form.currency')}
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
            </SimpleGrid>
          )}
          <Group gap="md" align="flex-start">
            <DateField
              label={t('transactions.coupons.form.validFrom')}
              description={t('transactions.coupons.form.validHint', { zone })}
              value={values.validFrom}
              error={errorOf('validFrom')}
              onChange={(text) => {
                set('validFrom', text);
              }}
              isRequired
              width={200}
            />
            <DateField
              label={t('transactions.coupons.form.validTo')}
              description={t('transactions.coupons.form.validHint', { zone })}
              value={values.validTo}
              error={errorOf('validTo')}
              onChange={(text) => {
                set('validTo', text);
              }}
              isRequired
              width={200}
            />
          </Group>
          <Stack gap={6}>
            <TextInput
              label={t('transactions.coupons.form.maxUses')}
              value={values.isUnlimited ? '' : values.maxUses}
              inputMode="numeric"
              disabled={values.isUnlimited}
              onChange={(event) => {
                set('maxUses', event.currentTarget.value);
              }}
              error={errorOf('maxUses')}
              w={200}
            />
            <Switch
              label={t('transactions.coupons.form.unlimited')}
              checked={values.isUnlimited}
              onChange={(event) => {
                set('isUnlimited', event.currentTarget.checked);
              }}
            />
          </Stack>
          {isFormLevelError(save.error, FIELD_OF_CODE) ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('transactions.coupons.form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
