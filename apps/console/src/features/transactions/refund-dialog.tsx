import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useMoney } from '../packages/package-badges';
import { orderDetailQuery, refreshTransactions, refundOrder } from './transactions-api';

/**
 * Refunds a paid order in full: first what happens and the reason (required), then a confirmation
 * naming the amount and the customer. The server's refusal (not refundable, the provider refused)
 * shows in the dialog.
 */
export function RefundDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const { t } = useTranslation(['payments', 'common']);
  const queryClient = useQueryClient();
  const money = useMoney();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<'reason' | 'confirm'>('reason');
  const amount = money(order.totalMinor, order.currency);
  const refund = useMutation({
    mutationFn: () => refundOrder(order.id, reason.trim()),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (refunded) => {
      queryClient.setQueryData(orderDetailQuery(refunded.id).queryKey, refunded);
      notifySuccess(t('transactions.refund.done', { code: refunded.code }));
      await refreshTransactions(queryClient);
      onClose();
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('transactions.refund.title', { code: order.code })}
      centered
      closeButtonProps={{ 'aria-label': t('common:actions.cancel') }}
    >
      {step === 'reason' ? (
        <form
          noValidate
          data-testid="refund-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim() === '') {
              setReasonError(t('transactions.refund.reasonRequired'));
              return;
            }
            setReasonError(undefined);
            refund.reset();
            setStep('confirm');
          }}
        >
          <Stack gap="md">
            <Text fz="sm">{t('transactions.refund.intro', { customer: order.customerName, amount })}</Text>
            {order.method === 'VNPAY' ? (
              <Text fz="sm" c="dimmed">
                {t('transactions.refund.vnpayNote')}
              </Text>
            ) : null}
            <Textarea
              label={t('transactions.refund.reason')}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
              }}
              error={reasonError}
              withAsterisk
              autosize
              minRows={2}
              maxLength={500}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common:actions.cancel')}
              </Button>
              <Button type="submit">{t('transactions.refund.next')}</Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack gap="md" data-testid="refund-confirm">
          <Text>{t('transactions.refund.confirmText', { amount, customer: order.customerName })}</Text>
          {refund.error === null ? null : (
            <Alert color="red" variant="light" role="alert" data-testid="refund-error">
              {messageText(errorMessageFor(refund.error))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setStep('reason');
              }}
            >
              {t('transactions.refund.back')}
            </Button>
            <Button
              color="red"
              loading={refund.isPending}
              onClick={() => {
                refund.mutate();
              }}
            >
              {t('transactions.refund.confirm')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
