import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, SimpleGrid, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  ORDER_EXPORT_ATTRIBUTES,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  type OrderExportAttribute,
  type OrderExportInput,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldMessageText, type FieldMessages } from '../../lib/form-errors';
import { toDisplayDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { DateField } from '../shell/date-field';
import { exportInputOf, inListOrder, type ExportFormValues } from './export-form-values';
import { downloadOrderExport, type OrderFilter } from './transactions-api';

/** The columns an export starts with; people add or remove the others. */
const DEFAULT_ATTRIBUTES: readonly OrderExportAttribute[] = [
  'code',
  'createdAt',
  'customerName',
  'packageName',
  'total',
  'method',
  'status',
  'responseMessage',
];

/**
 * The order history to Excel (spec §5: "at least one attribute, a payment method and a date"):
 * the columns, the payment methods and the days (from the list's filters when it has them), and
 * optionally a status. Checked before anything is sent; the server's refusal (no data) shows here.
 */
export function ExportDialog({
  filter,
  onClose,
}: {
  filter: Pick<OrderFilter, 'method' | 'from' | 'to' | 'status'>;
  onClose: () => void;
}) {
  const { t } = useTranslation(['payments', 'common']);
  const [values, setValues] = useState<ExportFormValues>(() => ({
    attributes: [...DEFAULT_ATTRIBUTES],
    methods: filter.method === null ? [...PAYMENT_METHODS] : [filter.method],
    from: toDisplayDate(filter.from),
    to: toDisplayDate(filter.to),
    status: filter.status,
  }));
  const [errors, setErrors] = useState<FieldMessages>({});
  const download = useMutation({
    mutationFn: (input: OrderExportInput) => downloadOrderExport(input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('transactions.export.done'));
      onClose();
    },
  });
  const set = <K extends keyof ExportFormValues>(key: K, value: ExportFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
  };
  const errorOf = (field: string) => fieldMessageText(errors[field]);
  const submit = () => {
    const result = exportInputOf(values);
    if (result.messages) {
      setErrors(result.messages);
      return;
    }
    setErrors({});
    download.mutate(result.input);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('transactions.export.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:actions.cancel') }}
      size="xl"
    >
      <form
        noValidate
        data-testid="export-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Checkbox.Group
            label={t('transactions.export.attributes')}
            description={t('transactions.export.attributesHint')}
            value={values.attributes}
            onChange={(chosen) => {
              set('attributes', inListOrder(ORDER_EXPORT_ATTRIBUTES, chosen));
            }}
            error={errorOf('attributes')}
            withAsterisk
            data-testid="export-attributes"
          >
            <Group gap="xs" mt={6} mb={4}>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => {
                  set('attributes', [...ORDER_EXPORT_ATTRIBUTES]);
                }}
              >
                {t('transactions.export.selectAll')}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => {
                  set('attributes', []);
                }}
              >
                {t('transactions.export.clear')}
              </Button>
            </Group>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={6}>
              {ORDER_EXPORT_ATTRIBUTES.map((attribute) => (
                <Checkbox key={attribute} value={attribute} label={t(`orders.export.${attribute}`)} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Checkbox.Group
            label={t('transactions.export.methods')}
            value={values.methods}
            onChange={(chosen) => {
              set('methods', inListOrder(PAYMENT_METHODS, chosen));
            }}
            error={errorOf('methods')}
            withAsterisk
            data-testid="export-methods"
          >
            <Group gap="lg" mt={6}>
              {PAYMENT_METHODS.map((method) => (
                <Checkbox key={method} value={method} label={t(`transactions.methods.${method}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group gap="md" align="flex-start">
            <DateField
              label={t('transactions.export.from')}
              value={values.from}
              error={errorOf('from')}
              onChange={(text) => {
                set('from', text);
              }}
              isRequired
              width={160}
            />
            <DateField
              label={t('transactions.export.to')}
              value={values.to}
              error={errorOf('to')}
              onChange={(text) => {
                set('to', text);
              }}
              isRequired
              width={160}
            />
            <Select
              label={t('transactions.export.status')}
              placeholder={t('transactions.export.anyStatus')}
              data={ORDER_STATUSES.map((status) => ({
                value: status,
                label: t(`orders.statuses.${status}`),
              }))}
              value={values.status}
              onChange={(value) => {
                set('status', ORDER_STATUSES.find((status) => status === value) ?? null);
              }}
              clearable
              w={200}
            />
          </Group>
          {download.error === null ? null : (
            <Alert color="red" variant="light" role="alert" data-testid="export-error">
              {messageText(errorMessageFor(download.error))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" loading={download.isPending}>
              {t('transactions.export.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
