import { useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { levelInputSchema, type StaffDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import type { FieldMessages } from '../../lib/form-errors';
import { fieldMessageText } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { Can } from '../shell/permissions';
import { useRoleOptions } from './role-options';
import { addStaffLevel, refreshStaff, removeStaffLevel } from './staff-api';
import { baseRoleOf, EMPTY_STAFF, placementOf, roleIssues } from './staff-form-values';
import { useRoleLabel } from './staff-status';

function AddLevelForm({ staff, onClose }: { staff: StaffDetail; onClose: () => void }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { scopes, centers } = useOrgReach();
  const { groups, customRoles } = useRoleOptions({ withPlatformRoles: false });
  const [role, setRole] = useState<string | null>(null);
  const [centerId, setCenterId] = useState<string | null>(null);
  const [scopeId, setScopeId] = useState<string | null>(null);
  const [messages, setMessages] = useState<FieldMessages>({});
  const base = baseRoleOf(role, customRoles);
  const placement = placementOf(base);
  const add = useMutation({
    mutationFn: (input: { role: string; scopeId: string | null; centerId: string | null }) =>
      addStaffLevel(staff.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('staff.levels.added', { name: staff.fullName }));
      refreshStaff(queryClient);
      onClose();
    },
  });
  const submit = () => {
    const issues = roleIssues({ ...EMPTY_STAFF, role, centerId, scopeId }, base);
    setMessages(issues);
    const input = {
      role,
      scopeId: placement === 'scope' ? scopeId : null,
      centerId: placement === 'center' || placement === 'tenantOrCenter' ? centerId : null,
    };
    const parsed = levelInputSchema.safeParse(input);
    if (Object.keys(issues).length === 0 && parsed.success && role !== null)
      add.mutate({ role, scopeId: input.scopeId, centerId: input.centerId });
  };
  return (
    <Stack gap="md">
      <Text fz="sm">{t('staff.levels.addText', { name: staff.fullName })}</Text>
      {add.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageFor(add.error))}
        </Alert>
      ) : null}
      <Select
        label={t('staff.form.role')}
        data={groups}
        value={role}
        onChange={setRole}
        error={fieldMessageText(messages.role)}
        searchable
        withAsterisk
      />
      {placement === 'scope' ? (
        <Select
          label={t('staff.form.scope')}
          data={scopesInTreeOrder(scopes).map((scope) => ({
            value: scope.id,
            label: scopePath(scopes, scope.id),
          }))}
          value={scopeId}
          onChange={setScopeId}
          error={fieldMessageText(messages.scopeId)}
          searchable
          withAsterisk
        />
      ) : null}
      {placement === 'center' || placement === 'tenantOrCenter' ? (
        <Select
          label={t('staff.form.center')}
          placeholder={placement === 'tenantOrCenter' ? t('staff.form.wholeTenant') : undefined}
          data={centers.map((center) => ({ value: center.id, label: center.name }))}
          value={centerId}
          onChange={setCenterId}
          error={fieldMessageText(messages.centerId)}
          searchable
          clearable={placement === 'tenantOrCenter'}
          withAsterisk={placement === 'center'}
        />
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {tc('actions.cancel')}
        </Button>
        <Button loading={add.isPending} onClick={submit}>
          {t('staff.levels.add')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The levels the switcher offers this person (spec §2 level access): the main level, which the
 * edit form changes, and extra levels added and removed here. Either change ends their sessions.
 * `isChangeable` false (an account at or above the caller's rank, or their own): listed only.
 */
export function StaffLevelsCard({
  staff,
  isChangeable = true,
}: {
  staff: StaffDetail;
  isChangeable?: boolean;
}) {
  const { t } = useTranslation('org');
  const roleLabel = useRoleLabel();
  const queryClient = useQueryClient();
  const [isAdding, setIsAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (levelId: string) => removeStaffLevel(staff.id, levelId),
    onSuccess: () => {
      notifySuccess(t('staff.levels.removed', { name: staff.fullName }));
      refreshStaff(queryClient);
    },
  });
  return (
    <Paper withBorder radius="md" p="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="lg">
          {t('staff.levels.title')}
        </Title>
        {staff.isPlatformStaff || !isChangeable ? null : (
          <Can permission="staff.update">
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                setIsAdding(true);
              }}
            >
              {t('staff.levels.add')}
            </Button>
          </Can>
        )}
      </Group>
      <Table aria-label={t('staff.levels.title')} data-testid="staff-levels">
        <Table.Tbody>
          {staff.levels.map((level) => (
            <Table.Tr key={level.id ?? 'main'}>
              <Table.Td>{roleLabel(level)}</Table.Td>
              <Table.Td>{level.center?.name ?? level.scope?.name ?? t('staff.wholeTenant')}</Table.Td>
              <Table.Td ta="right">
                {level.id === null ? (
                  <Text fz="xs" c="dimmed">
                    {t('staff.levels.main')}
                  </Text>
                ) : !isChangeable ? null : (
                  <Can permission="staff.update">
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending && remove.variables === level.id}
                      onClick={() => {
                        if (level.id !== null) remove.mutate(level.id);
                      }}
                    >
                      {t('staff.levels.remove')}
                    </Button>
                  </Can>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fz="xs" c="dimmed" mt="xs">
        {t('staff.levels.hint')}
      </Text>
      <Modal
        opened={isAdding}
        onClose={() => {
          setIsAdding(false);
        }}
        title={t('staff.levels.addTitle')}
        centered
      >
        {isAdding ? (
          <AddLevelForm
            staff={staff}
            onClose={() => {
              setIsAdding(false);
            }}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}
