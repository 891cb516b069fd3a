import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';

/**
 * Asks before an action on one record (remove, cancel, restore): what will happen, the server's
 * refusal where the user looks (spec §7 messages), a way back and the action's own button.
 */
export function ConfirmDialog({
  isOpen,
  title,
  text,
  confirmLabel,
  backLabel,
  confirmColor,
  isPending,
  error,
  errorTestId,
  onConfirm,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  /** Defaults to "Cancel"; say "Back" where the action itself is a cancellation. */
  backLabel?: string;
  /** Red for what removes or stops something. */
  confirmColor?: 'red';
  isPending: boolean;
  /** The last attempt's failure, or null. */
  error: unknown;
  errorTestId?: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={isOpen} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text>{text}</Text>
        {error === null || error === undefined ? null : (
          <Alert color="red" variant="light" role="alert" data-testid={errorTestId}>
            {messageText(errorMessageFor(error))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {backLabel ?? t('actions.cancel')}
          </Button>
          <Button color={confirmColor} loading={isPending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
