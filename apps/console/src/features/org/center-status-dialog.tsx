import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CenterDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { setCenterEnabled } from './centers-api';
import { refreshOrg } from './scopes-api';

/**
 * Deactivates or activates a center. A center with staff or patients cannot be deactivated: the
 * server answers "Health Center is being used", shown in the dialog.
 */
export function CenterStatusDialog({
  center,
  onClose,
}: {
  center: CenterDetail | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (target: CenterDetail) => setCenterEnabled(target.id, !target.enabled),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(
        t(saved.enabled ? 'centers.statusDialog.activated' : 'centers.statusDialog.deactivated', {
          name: saved.name,
        }),
      );
      refreshOrg(queryClient);
      close();
    },
  });
  function close() {
    mutation.reset();
    onClose();
  }
  const isDeactivating = center?.enabled ?? true;
  return (
    <Modal
      opened={center !== null}
      onClose={close}
      title={
        isDeactivating ? t('centers.statusDialog.deactivateTitle') : t('centers.statusDialog.activateTitle')
      }
      centered
    >
      <Stack gap="md">
        <Text>
          {isDeactivating
            ? t('centers.statusDialog.deactivateText', { name: center?.name ?? '' })
            : t('centers.statusDialog.activateText', { name: center?.name ?? '' })}
        </Text>
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="center-status-error">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {tc('actions.cancel')}
          </Button>
          <Button
            color={isDeactivating ? 'red' : undefined}
            loading={mutation.isPending}
            onClick={() => {
              if (center) mutation.mutate(center);
            }}
            data-autofocus
          >
            {isDeactivating ? t('centers.statusDialog.deactivate') : t('centers.statusDialog.activate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
