import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SCOPE_ADMIN_ROLES, scopeAdminsInputSchema, type ScopeDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { AdminMultiSelect } from './admin-picker';
import { refreshOrg, setScopeAdmins } from './scopes-api';

function AdminsForm({ scope, onClose }: { scope: ScopeDetail; onClose: () => void }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const ofKind = (kind: 'ADMIN' | 'SUPPORT') =>
    scope.admins.filter((admin) => admin.kind === kind).map((admin) => admin.userId);
  const [adminIds, setAdminIds] = useState(ofKind('ADMIN'));
  const [supportAdminIds, setSupportAdminIds] = useState(ofKind('SUPPORT'));
  const [isOverlapping, setIsOverlapping] = useState(false);
  const save = useMutation({
    mutationFn: (input: { adminIds: string[]; supportAdminIds: string[] }) => setScopeAdmins(scope.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('scopes.admins.saved', { name: scope.name }));
      refreshOrg(queryClient);
      onClose();
    },
  });
  return (
    <Stack gap="md">
      {save.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageFor(save.error))}
        </Alert>
      ) : null}
      <AdminMultiSelect
        label={t('scopes.admins.admins')}
        roles={SCOPE_ADMIN_ROLES}
        known={scope.admins}
        value={adminIds}
        onChange={setAdminIds}
        exclude={supportAdminIds}
      />
      <AdminMultiSelect
        label={t('scopes.admins.supportAdmins')}
        roles={SCOPE_ADMIN_ROLES}
        known={scope.admins}
        value={supportAdminIds}
        onChange={setSupportAdminIds}
        exclude={adminIds}
        error={isOverlapping ? t('scopes.admins.overlap') : undefined}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {tc('actions.cancel')}
        </Button>
        <Button
          loading={save.isPending}
          onClick={() => {
            const parsed = scopeAdminsInputSchema.safeParse({ adminIds, supportAdminIds });
            setIsOverlapping(!parsed.success);
            if (parsed.success) save.mutate(parsed.data);
          }}
        >
          {tc('actions.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Replaces a scope's admins and support admins (active admin accounts; one person, one kind). */
export function ScopeAdminsDialog({ scope, onClose }: { scope: ScopeDetail | null; onClose: () => void }) {
  const { t } = useTranslation('org');
  return (
    <Modal opened={scope !== null} onClose={onClose} title={t('scopes.admins.title')} size="lg" centered>
      {scope ? <AdminsForm scope={scope} onClose={onClose} /> : null}
    </Modal>
  );
}
