import { CONTACT_LIMITS, CONTACT_TYPES, RELATIONSHIPS, type ContactType, type FollowerInvite, type Relationship } from '@rpm/contracts';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox, TextField } from '../../ui/kit';
import { SelectField } from './parts';
import { checkForm, fieldOfError, type FieldProblems, type InviteForm } from './rules';

export const EMPTY_FORM: InviteForm = { phone: '', name: '', relationship: '', contactType: '', favourite: false };

/**
 * The follower's details: phone (only when inviting), alias, relationship, contact type,
 * favourite. Checked with the contract's schema before sending; the server's refusals that concern
 * one field show under it (spec §8), any other under the form.
 */
export function FollowerForm(props: {
  initial: InviteForm;
  withPhone: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Called with the form once it passed the contract's schema. */
  onSubmit: (form: FollowerInvite) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('appContacts');
  const [form, setForm] = useState<InviteForm>(props.initial);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const limit = form.contactType === '' ? 0 : CONTACT_LIMITS[form.contactType];
  const problem = (field: keyof FieldProblems) => {
    const key = problems[field];
    return key === undefined ? undefined : t(key, { limit });
  };
  const change = (patch: Partial<InviteForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    // A field's problem goes when the field changes.
    setProblems((previous) =>
      Object.fromEntries(Object.entries(previous).filter(([field]) => !(field in patch))),
    );
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = checkForm(form, props.withPhone);
    setProblems(checked.problems);
    if (checked.valid === undefined) return;
    setBusy(true);
    try {
      await props.onSubmit(checked.valid);
    } catch (error) {
      const byField = error instanceof ApiError ? fieldOfError(error.code) : undefined;
      if (byField !== undefined && (props.withPhone || byField.field !== 'phone')) setProblems({ [byField.field]: byField.key });
      else setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="follower-form" noValidate onSubmit={(event) => void submit(event)}>
      {props.withPhone ? (
        <TextField
          label={t('form.phone')}
          hint={t('form.phoneHint')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={form.phone}
          error={problem('phone')}
          onChange={(event) => { change({ phone: event.target.value }); }}
        />
      ) : null}
      <TextField
        label={t('form.name')}
        hint={t('form.nameHint')}
        autoComplete="off"
        maxLength={80}
        value={form.name}
        error={problem('name')}
        onChange={(event) => { change({ name: event.target.value }); }}
      />
      <SelectField
        label={t('form.relationship')}
        placeholder={t('form.choose')}
        value={form.relationship}
        options={RELATIONSHIPS.map((value) => ({ value, label: t(`relationship.${value}`) }))}
        error={problem('relationship')}
        onChange={(value) => { change({ relationship: value as Relationship }); }}
      />
      <SelectField
        label={t('form.contactType')}
        placeholder={t('form.choose')}
        value={form.contactType}
        options={CONTACT_TYPES.map((value) => ({ value, label: t(`type.${value}`) }))}
        error={problem('contactType')}
        onChange={(value) => { change({ contactType: value as ContactType }); }}
      />
      <Checkbox label={t('form.favourite')} checked={form.favourite} onChange={(favourite) => { change({ favourite }); }} />
      {failure === null ? null : <Alert>{failure}</Alert>}
      <div className="form-actions">
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            {t('form.cancel')}
          </button>
        ) : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}
