import type { ReactNode, Ref, SubmitEvent } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { usePermissions } from '../shell/permissions';

/**
 * The frame every tenant tab's form shares: read-only (a disabled fieldset, no Save) without
 * tenant.update, the failure of the last save above the fields unless the server named the fields
 * (then the messages sit under them), and Save at the end.
 */
export function TabForm({
  label,
  formRef,
  onSubmit,
  isSaving,
  error,
  saveLabel,
  extraActions,
  isErrorShownOnFields,
  children,
}: {
  label: string;
  formRef?: Ref<HTMLFormElement>;
  onSubmit: () => void;
  isSaving: boolean;
  error: unknown;
  saveLabel?: string;
  extraActions?: ReactNode;
  /** Whether the fields show this error themselves; by default, when the server named fields. */
  isErrorShownOnFields?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation(['tenants', 'common']);
  const { can } = usePermissions();
  const isReadOnly = !can('tenant.update');
  const hasFieldErrors = isErrorShownOnFields ?? (isApiError(error) && error.fieldErrors.length > 0);

  return (
    <form
      ref={formRef}
      aria-label={label}
      noValidate
      onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
        event.preventDefault();
        if (!isReadOnly && !isSaving) onSubmit();
      }}
    >
      <fieldset disabled={isReadOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="lg">
          {isReadOnly ? (
            <Alert color="gray" variant="light">
              {t('detail.readOnly')}
            </Alert>
          ) : null}
          {error && !hasFieldErrors ? (
            <Alert color="red" variant="light" role="alert" title={t('detail.saveFailed')}>
              {messageText(errorMessageFor(error))}
            </Alert>
          ) : null}
          {children}
          {isReadOnly ? null : (
            <Group justify="flex-end">
              {extraActions}
              <Button type="submit" loading={isSaving}>
                {saveLabel ?? t('common:actions.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
