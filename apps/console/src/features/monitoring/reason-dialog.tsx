import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';

/**
 * Confirms a state change; when the machine needs a reason (contracts cases.ts) the reason is
 * required before the request is sent (the server checks it too).
 */
export function ReasonDialog({
  opened,
  title,
  needsReason,
  isPending,
  error,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  needsReason: boolean;
  isPending: boolean;
  error: unknown;
  onClose: () => void;
  onSubmit: (reason: string) => void;
}) {
  const { t } = useTranslation('monitoring');
  const [reason, setReason] = useState('');
  const [isMissing, setMissing] = useState(false);
  const close = () => {
    setReason('');
    setMissing(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (needsReason && reason.trim() === '') {
            setMissing(true);
            return;
          }
          onSubmit(reason.trim());
        }}
      >
        <Stack gap="md">
          <Textarea
            label={t('reasonDialog.reason')}
            placeholder={t('reasonDialog.reasonPlaceholder')}
            value={reason}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setMissing(false);
            }}
            error={isMissing ? t('reasonDialog.required') : undefined}
            withAsterisk={needsReason}
            autosize
            minRows={3}
            maxLength={1000}
            data-autofocus
          />
          {error === null || error === undefined ? null : (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(error))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('reasonDialog.cancel')}
            </Button>
            <Button type="submit" loading={isPending}>
              {t('reasonDialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
