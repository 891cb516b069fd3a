import type { SubmitEvent } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_LIMITS,
  CONTACT_TYPES,
  contactInputSchema,
  RELATIONSHIPS,
  type Contact,
  type ContactInput,
  type ContactType,
  type Relationship,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { fieldOfError, isFormLevelError } from '../../lib/form-errors';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { addFollower, refreshFollowers, updateFollower } from './contacts-api';

export type FollowerFormMode = { kind: 'add' } | { kind: 'edit'; contact: Contact };

interface FollowerValues {
  name: string;
  phone: string;
  relationship: Relationship | null;
  contactType: ContactType | null;
  favourite: boolean;
}

/** Refusals that belong under one field (spec §5: not oneself, not twice; §9: limits per type). */
const FIELD_OF_CODE: Partial<Record<string, keyof FollowerValues>> = {
  'contact.exists': 'phone',
  'request.toSelf': 'phone',
  'careTeam.limitReached': 'contactType',
};

const MAX_PER_TYPE = Math.max(...Object.values(CONTACT_LIMITS));

function FollowerForm({
  patientId,
  mode,
  contacts,
  onClose,
}: {
  patientId: string;
  mode: FollowerFormMode;
  contacts: readonly Contact[];
  onClose: () => void;
}) {
  const { t } = useTranslation('patientContacts');
  const { t: tm } = useTranslation('monitoring');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const isEdit = mode.kind === 'edit';
  const form = useFormState<FollowerValues>(
    isEdit
      ? {
          name: mode.contact.name,
          phone: mode.contact.phone,
          relationship: mode.contact.relationship,
          contactType: mode.contact.contactType,
          favourite: mode.contact.favourite,
        }
      : { name: '', phone: '', relationship: null, contactType: null, favourite: false },
  );
  const { values } = form;
  // A confirmed follower's app account came from this phone: the number stays as it was confirmed.
  const isPhoneLocked = isEdit && mode.contact.invitationStatus === 'CONFIRMED';

  const save = useMutation({
    mutationFn: (input: ContactInput) =>
      isEdit ? updateFollower(patientId, mode.contact.id, input) : addFollower(patientId, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(isEdit ? t('contacts.form.saved') : t('contacts.form.added', { name: saved.name }));
      refreshFollowers(queryClient);
      onClose();
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  // The types already full are offered but not choosable, so the reason is visible before asking.
  const others = contacts.filter((contact) => !isEdit || contact.id !== mode.contact.id);
  const isTypeFull = (type: ContactType) =>
    others.filter((contact) => contact.contactType === type).length >= CONTACT_LIMITS[type];

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = form.validate(contactInputSchema, values);
    if (parsed && !save.isPending) save.mutate(parsed);
  };

  const showAlert = save.isError && isFormLevelError(save.error, FIELD_OF_CODE);

  return (
    <form
      ref={form.formRef}
      onSubmit={onSubmit}
      noValidate
      aria-label={isEdit ? t('contacts.form.editTitle') : t('contacts.form.addTitle')}
    >
      <Stack gap="md">
        {showAlert ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(save.error))}
          </Alert>
        ) : null}
        <TextInput
          label={t('contacts.form.name')}
          description={t('contacts.form.nameHint')}
          value={values.name}
          onChange={(event) => {
            form.setField('name', event.currentTarget.value);
          }}
          error={form.errorOf('name')}
          withAsterisk
          data-autofocus
        />
        <TextInput
          label={t('contacts.form.phone')}
          description={t('contacts.form.phoneHint')}
          type="tel"
          inputMode="tel"
          value={values.phone}
          onChange={(event) => {
            form.setField('phone', event.currentTarget.value);
          }}
          error={form.errorOf('phone')}
          disabled={isPhoneLocked}
          withAsterisk
        />
        <Select
          label={t('contacts.form.relationship')}
          data={RELATIONSHIPS.map((relationship) => ({
            value: relationship,
            label: tm(`relationship.${relationship}`),
          }))}
          value={values.relationship}
          onChange={(value) => {
            form.setField('relationship', value);
          }}
          error={form.errorOf('relationship')}
          allowDeselect={false}
          withAsterisk
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('contacts.form.type')}
          description={t('contacts.form.typeHint', { count: MAX_PER_TYPE })}
          data={CONTACT_TYPES.map((type) => ({
            value: type,
            label: tm(`contactType.${type}`),
            disabled: isTypeFull(type) && type !== values.contactType,
          }))}
          value={values.contactType}
          onChange={(value) => {
            form.setField('contactType', value);
          }}
          error={form.errorOf('contactType')}
          allowDeselect={false}
          withAsterisk
          comboboxProps={{ withinPortal: true }}
        />
        <Checkbox
          label={t('contacts.form.favourite')}
          checked={values.favourite}
          onChange={(event) => {
            form.setField('favourite', event.currentTarget.checked);
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {isEdit ? tc('actions.save') : t('contacts.form.submitAdd')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Add a follower (an SMS invitation goes to the phone) or edit one's alias, relationship, type, favourite. */
export function FollowerFormDialog({
  patientId,
  mode,
  contacts,
  onClose,
}: {
  patientId: string;
  mode: FollowerFormMode | null;
  contacts: readonly Contact[];
  onClose: () => void;
}) {
  const { t } = useTranslation('patientContacts');
  const title = mode?.kind === 'edit' ? t('contacts.form.editTitle') : t('contacts.form.addTitle');
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title} centered>
      {mode ? (
        <FollowerForm
          key={mode.kind === 'edit' ? mode.contact.id : 'add'}
          patientId={patientId}
          mode={mode}
          contacts={contacts}
          onClose={onClose}
        />
      ) : null}
    </Modal>
  );
}
