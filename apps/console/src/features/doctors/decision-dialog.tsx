import { useState, type SubmitEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';

export type Decision = 'approve' | 'reject' | 'cancel';

/**
 * Confirms a decision on a request; a rejection asks for its reason (spec §4: reject reasons are
 * required). The caller runs the change and passes its error back to show here.
 */
export function DecisionDialog({
  decision,
  subject,
  isPending,
  error,
  onConfirm,
  onClose,
}: {
  decision: Decision | null;
  subject: string;
  isPending: boolean;
  error: unknown;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>(undefined);
  const close = () => {
    setReason('');
    setReasonError(undefined);
    onClose();
  };
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (decision === 'reject' && reason.trim() === '') {
      setReasonError(t('decision.reasonRequired'));
      return;
    }
    if (!isPending) onConfirm(reason.trim());
  };
  return (
    <Modal
      opened={decision !== null}
      onClose={close}
      title={decision === null ? '' : t(`decision.${decision}.title`)}
      centered
    >
      {decision === null ? null : (
        <form onSubmit={onSubmit} noValidate aria-label={t(`decision.${decision}.title`)}>
          <Stack gap="md">
            <Text>{t(`decision.${decision}.text`, { subject })}</Text>
            {error !== null && error !== undefined ? (
              <Alert color="red" variant="light" role="alert" data-testid="decision-error">
                {messageText(errorMessageFor(error))}
              </Alert>
            ) : null}
            {decision === 'reject' ? (
              <Textarea
                label={t('decision.reason')}
                value={reason}
                onChange={(event) => {
                  setReason(event.currentTarget.value);
                  setReasonError(undefined);
                }}
                error={reasonError}
                aria-invalid={reasonError !== undefined}
                autosize
                minRows={2}
                maxLength={500}
                withAsterisk
                data-autofocus
              />
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {tc('actions.cancel')}
              </Button>
              <Button
                type="submit"
                color={decision === 'approve' ? 'teal' : 'red'}
                loading={isPending}
                data-autofocus={decision === 'reject' ? undefined : true}
              >
                {t(`decision.${decision}.confirm`)}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
