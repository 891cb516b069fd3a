import type { SubmitEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS, scopeInputSchema, scopeUpdateSchema, type Scope } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { scopePath, scopesInTreeOrder } from '../levels/reach';
import { useOrgReach } from '../levels/use-org-reach';
import { createScope, refreshOrg, updateScope } from './scopes-api';

export type ScopeFormMode = { kind: 'create'; parentId: string | null } | { kind: 'edit'; scope: Scope };

interface ScopeValues {
  name: string;
  type: string;
  parentId: string | null;
}

/** Answers that belong under one field rather than above the form. */
const FIELD_OF_CODE: Partial<Record<string, keyof ScopeValues>> = {
  'scope.nameExists': 'name',
  'scope.invalidLevel': 'parentId',
  'scope.notFound': 'parentId',
};

function ScopeForm({ mode, onClose }: { mode: ScopeFormMode; onClose: () => void }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { scopes } = useOrgReach();
  const isEdit = mode.kind === 'edit';
  const form = useFormState<ScopeValues>(
    isEdit
      ? { name: mode.scope.name, type: mode.scope.type, parentId: mode.scope.parentId }
      : { name: '', type: '', parentId: mode.parentId },
  );
  const { values } = form;
  const parent = values.parentId === null ? undefined : scopes.find((scope) => scope.id === values.parentId);
  // The level follows from the parent (spec §3: levels 1 to 5); a sixth is refused before asking.
  const level = parent ? parent.level + 1 : 1;
  const isTooDeep = level > LIMITS.scopeLevelMax;

  const save = useMutation({
    mutationFn: (input: { name: string; type: string; parentId: string | null }) =>
      isEdit
        ? updateScope(mode.scope.id, { name: input.name, type: input.type })
        : createScope({ ...input, level }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t(isEdit ? 'scopes.form.saved' : 'scopes.form.created', { name: saved.name }));
      refreshOrg(queryClient);
      onClose();
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isEdit && isTooDeep) {
      form.setMessage('parentId', { key: 'org:scopes.form.tooDeep', values: { max: LIMITS.scopeLevelMax } });
      return;
    }
    const parsed = isEdit
      ? form.validate(scopeUpdateSchema.pick({ name: true, type: true }), values)
      : form.validate(scopeInputSchema.pick({ name: true, type: true, parentId: true }), values);
    if (parsed && !save.isPending)
      save.mutate({ name: parsed.name, type: parsed.type ?? '', parentId: values.parentId });
  };

  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('scopes.form.label')}>
      <Stack gap="md">
        {showAlert ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : null}
        <TextInput
          label={t('scopes.form.name')}
          value={values.name}
          onChange={(event) => {
            form.setField('name', event.currentTarget.value);
          }}
          error={form.errorOf('name')}
          withAsterisk
          data-autofocus
        />
        <TextInput
          label={t('scopes.form.type')}
          description={t('scopes.form.typeHint')}
          value={values.type}
          onChange={(event) => {
            form.setField('type', event.currentTarget.value);
          }}
          error={form.errorOf('type')}
        />
        {isEdit ? null : (
          <Select
            label={t('scopes.form.parent')}
            placeholder={t('scopes.form.noParent')}
            data={scopesInTreeOrder(scopes).map((scope) => ({
              value: scope.id,
              label: scopePath(scopes, scope.id),
              // A level-5 scope cannot take children: offered, but not choosable, so the reason shows.
              disabled: scope.level >= LIMITS.scopeLevelMax,
            }))}
            value={values.parentId}
            onChange={(value) => {
              form.setField('parentId', value);
            }}
            error={form.errorOf('parentId')}
            searchable
            clearable
            nothingFoundMessage={t('scopes.noMatch')}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Text fz="sm" c={isTooDeep && !isEdit ? 'red.7' : 'dimmed'} data-testid="scope-level-note">
          {isEdit
            ? t('scopes.form.levelIs', { level: mode.scope.level })
            : isTooDeep
              ? t('scopes.form.tooDeep', { max: LIMITS.scopeLevelMax })
              : t('scopes.form.levelWillBe', { level })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!isEdit && isTooDeep}>
            {isEdit ? tc('actions.save') : t('scopes.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create a scope (a root, or a child of the chosen parent) or edit a scope's name and type. */
export function ScopeFormDialog({ mode, onClose }: { mode: ScopeFormMode | null; onClose: () => void }) {
  const { t } = useTranslation('org');
  const title = mode?.kind === 'edit' ? t('scopes.form.editTitle') : t('scopes.form.createTitle');
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title} centered>
      {mode ? <ScopeForm mode={mode} onClose={onClose} /> : null}
    </Modal>
  );
}
