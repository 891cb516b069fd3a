import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CustomRole } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { deleteRole, ROLES_QUERY_ROOT } from './roles-api';

/**
 * Confirms deleting a custom role. A role someone holds cannot go (409 role.inUse): the server's
 * message says so inside the dialog, where the user is looking.
 */
export function DeleteRoleDialog({ role, onClose }: { role: CustomRole | null; onClose: () => void }) {
  const { t } = useTranslation(['common', 'roles']);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: deleteRole,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('roles:rolesPage.deleted', { name: role?.name ?? '' }));
      void queryClient.invalidateQueries({ queryKey: ROLES_QUERY_ROOT });
      close();
    },
  });

  function close() {
    mutation.reset();
    onClose();
  }

  return (
    <Modal opened={role !== null} onClose={close} title={t('roles:rolesPage.deleteTitle')} centered>
      <Stack gap="md">
        <Text>{t('roles:rolesPage.deleteConfirm', { name: role?.name ?? '' })}</Text>
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="delete-role-error">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('actions.cancel')}
          </Button>
          <Button
            color="red"
            loading={mutation.isPending}
            onClick={() => {
              if (role) mutation.mutate(role.id);
            }}
          >
            {t('actions.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
