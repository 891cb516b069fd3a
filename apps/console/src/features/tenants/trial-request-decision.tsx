import type { SubmitEvent } from 'react';
import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tenantRequestApproveSchema, tenantRequestRejectSchema, type TenantRequest } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { validateTenantForm } from './tenant-form-errors';
import { TENANTS_QUERY_ROOT } from './tenants-api';
import { approveTrialRequest, rejectTrialRequest } from './trial-requests-api';

const isAlreadyDecided = (error: unknown) =>
  isApiError(error) && error.code === 'tenantRequest.alreadyDecided';

/**
 * After a decision, or after finding that another admin decided first: the request, the list
 * and (after an approval) the tenant list all changed, so refresh them and show what was decided.
 */
function useRefreshAfterDecision(): () => void {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: TENANTS_QUERY_ROOT });
}

function FailureAlert({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" role="alert" data-testid="decision-error">
      {messageText(errorMessageFor(error))}
    </Alert>
  );
}

/**
 * Approve: creates the tenant and its first admin (the requester, emailed a set-password code).
 * The name and code may be corrected here when the requested ones are already taken.
 */
export function ApproveDialog({
  request,
  opened,
  onClose,
}: {
  request: TenantRequest;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['tenants', 'common']);
  const refresh = useRefreshAfterDecision();
  const form = useFormState({ name: request.organizationName, code: request.requestedCode });
  const approve = useMutation({
    mutationFn: (input: { name: string; code: string }) => approveTrialRequest(request.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('requests.approved', { name: form.values.name, email: request.email }));
      refresh();
      onClose();
    },
    onError: (error) => {
      form.showServerErrors(error);
      if (isAlreadyDecided(error)) refresh();
    },
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (approve.isPending) return;
    const parsed = validateTenantForm(form, tenantRequestApproveSchema, form.values);
    if (parsed?.name && parsed.code) approve.mutate({ name: parsed.name, code: parsed.code });
  };
  const close = () => {
    approve.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('requests.approveTitle')} size="lg" centered>
      <form ref={form.formRef} onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Text fz="sm">{t('requests.approveConfirm', { email: request.email })}</Text>
          {approve.isError && !(isApiError(approve.error) && approve.error.fieldErrors.length > 0) ? (
            <FailureAlert error={approve.error} />
          ) : null}
          <SimpleGrid cols={2} spacing="md">
            <TextInput
              label={t('information.name')}
              value={form.values.name}
              onChange={(event) => {
                form.setField('name', event.currentTarget.value);
              }}
              error={form.errorOf('name')}
              withAsterisk
            />
            <TextInput
              label={t('information.code')}
              value={form.values.code}
              onChange={(event) => {
                form.setField('code', event.currentTarget.value);
              }}
              error={form.errorOf('code')}
              withAsterisk
            />
          </SimpleGrid>
          <Text fz="xs" c="dimmed">
            {t('requests.approveHint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" color="teal" loading={approve.isPending} data-autofocus>
              {t('requests.approveButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Reject: the reason is required (spec §4) and is emailed to the requester. */
export function RejectDialog({
  request,
  opened,
  onClose,
}: {
  request: TenantRequest;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation(['tenants', 'common']);
  const refresh = useRefreshAfterDecision();
  const form = useFormState({ reason: '' });
  const reject = useMutation({
    mutationFn: (reason: string) => rejectTrialRequest(request.id, reason),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('requests.rejected', { email: request.email }));
      refresh();
      onClose();
    },
    onError: (error) => {
      form.showServerErrors(error);
      if (isAlreadyDecided(error)) refresh();
    },
  });
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reject.isPending) return;
    const parsed = validateTenantForm(form, tenantRequestRejectSchema, form.values);
    if (parsed) reject.mutate(parsed.reason);
  };
  const close = () => {
    reject.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('requests.rejectTitle')} size="lg" centered>
      <form ref={form.formRef} onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Text fz="sm">{t('requests.rejectConfirm', { email: request.email })}</Text>
          {reject.isError && !(isApiError(reject.error) && reject.error.fieldErrors.length > 0) ? (
            <FailureAlert error={reject.error} />
          ) : null}
          <Textarea
            label={t('requests.reason')}
            description={t('requests.reasonHint')}
            value={form.values.reason}
            onChange={(event) => {
              form.setField('reason', event.currentTarget.value);
            }}
            error={form.errorOf('reason')}
            autosize
            minRows={3}
            maxRows={8}
            withAsterisk
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button type="submit" color="red" loading={reject.isPending}>
              {t('requests.rejectButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
