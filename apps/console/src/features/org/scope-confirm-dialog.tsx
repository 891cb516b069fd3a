import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Scope } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { deleteScope, refreshOrg, setScopeEnabled } from './scopes-api';

export type ScopeAction = 'disable' | 'enable' | 'delete';

/**
 * Confirms disabling, enabling or deleting a scope. The server refuses while the scope is in use
 * (centers, child scopes, admins) or has children: its message shows here, where the user looks.
 */
export function ScopeConfirmDialog({
  target,
  onClose,
  onDeleted,
}: {
  target: { scope: Scope; action: ScopeAction } | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async ({ scope, action }: { scope: Scope; action: ScopeAction }): Promise<unknown> =>
      action === 'delete'
        ? deleteScope(scope.id)
        : setScopeEnabled(scope.id, { name: scope.name, enabled: action === 'enable' }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (_answer, { scope, action }) => {
      notifySuccess(t(`scopes.confirm.${action}Done`, { name: scope.name }));
      refreshOrg(queryClient);
      close();
      if (action === 'delete') onDeleted?.();
    },
  });

  function close() {
    mutation.reset();
    onClose();
  }

  const action = target?.action ?? 'disable';
  const name = target?.scope.name ?? '';
  return (
    <Modal opened={target !== null} onClose={close} title={t(`scopes.confirm.${action}Title`)} centered>
      <Stack gap="md">
        <Text>{t(`scopes.confirm.${action}Text`, { name })}</Text>
        {mutation.isError ? (
          <Alert color="red" variant="light" role="alert" data-testid="scope-action-error">
            {messageText(errorMessageFor(mutation.error))}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {tc('actions.cancel')}
          </Button>
          <Button
            color={action === 'enable' ? undefined : 'red'}
            loading={mutation.isPending}
            onClick={() => {
              if (target) mutation.mutate(target);
            }}
            data-autofocus
          >
            {t(`scopes.confirm.${action}Button`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
