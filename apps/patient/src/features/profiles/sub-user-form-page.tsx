import { GENDERS, RELATIONSHIPS, SUB_USER_LIMIT, TREATED_CONDITIONS, type SubUserInput, type TreatedCondition } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox, TextField } from '../../ui/kit';
import { createSubUser, PROFILES_KEY, subUsersQuery, updateSubUser } from './profiles-api';
import { checkDraft, draftOf, emptyDraft, today, type Draft, type Field } from './sub-user-draft';
import './profiles.css';

function SubUserForm({ initial, save }: { initial: Draft; save: (input: SubUserInput) => Promise<unknown> }) {
  const { t } = useTranslation('appProfiles');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: PROFILES_KEY });
      await navigate('/sub-users');
    },
  });
  const set = <K extends keyof Draft>(key: K) => (value: Draft[K]) => {
    setDraft((old) => ({ ...old, [key]: value }));
    // A field's message goes once it is changed; the next save checks it again.
    setProblems((old) => (key in old ? { ...old, [key]: undefined } : old));
  };
  const problem = (field: Field) => (problems[field] === undefined ? undefined : t(problems[field]));
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const checked = checkDraft(draft);
    setProblems('problems' in checked ? checked.problems : {});
    if ('input' in checked) mutation.mutate(checked.input);
  };
  const failure =
    mutation.error instanceof ApiError && mutation.error.code === 'subUser.limitReached'
      ? t('limitReached', { limit: SUB_USER_LIMIT })
      : mutation.isError
        ? errorMessage(mutation.error)
        : undefined;
  const toggleCondition = (condition: TreatedCondition, checked: boolean) => {
    set('treatedConditions')(
      TREATED_CONDITIONS.filter((each) => (each === condition ? checked : draft.treatedConditions.includes(each))),
    );
  };
  return (
    <form className="card" noValidate onSubmit={submit}>
      <TextField label={t('form.firstName')} autoComplete="off" value={draft.firstName} error={problem('firstName')} onChange={(e) => { set('firstName')(e.target.value); }} />
      <TextField label={t('form.lastName')} autoComplete="off" value={draft.lastName} error={problem('lastName')} onChange={(e) => { set('lastName')(e.target.value); }} />
      <div className="field">
        <label htmlFor="sub-user-gender">{t('form.gender')}</label>
        <select id="sub-user-gender" value={draft.gender} onChange={(e) => { set('gender')(e.target.value); }}>
          <option value="">{t('form.genderNone')}</option>
          {GENDERS.map((gender) => <option key={gender} value={gender}>{t(`gender.${gender}`)}</option>)}
        </select>
      </div>
      <TextField label={t('form.birthday')} type="date" max={today()} hint={t('form.birthdayHint')} value={draft.birthday} error={problem('birthday')} onChange={(e) => { set('birthday')(e.target.value); }} />
      <div className="field">
        <label htmlFor="sub-user-relation">{t('form.relation')}</label>
        <select
          id="sub-user-relation"
          value={draft.relation}
          aria-invalid={problems.relation ? true : undefined}
          aria-describedby={problems.relation ? 'sub-user-relation-error' : undefined}
          onChange={(e) => { set('relation')(e.target.value); }}
        >
          <option value="" />
          {RELATIONSHIPS.map((relation) => <option key={relation} value={relation}>{t(`relation.${relation}`)}</option>)}
        </select>
        {problems.relation ? <p id="sub-user-relation-error" className="field-error">{problem('relation')}</p> : null}
      </div>
      <Checkbox label={t('form.smoking')} checked={draft.smoking} onChange={set('smoking')} />
      <fieldset>
        <legend>{t('form.conditions')}</legend>
        {TREATED_CONDITIONS.map((condition) => (
          <Checkbox
            key={condition}
            label={t(`condition.${condition}`)}
            checked={draft.treatedConditions.includes(condition)}
            onChange={(checked) => { toggleCondition(condition, checked); }}
          />
        ))}
      </fieldset>
      {failure === undefined ? null : <Alert>{failure}</Alert>}
      <button className="primary" type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? t('form.saving') : t('form.save')}
      </button>
    </form>
  );
}

function BackLink() {
  const { t } = useTranslation('appProfiles');
  return (
    <p className="back">
      <Link to="/sub-users">{t('form.back')}</Link>
    </p>
  );
}

/** /sub-users/new — a new sub-user profile (a child is allowed: no age minimum). */
export function NewSubUserPage() {
  const { t } = useTranslation('appProfiles');
  return (
    <div className="sub-users">
      <BackLink />
      <h1>{t('form.newTitle')}</h1>
      <SubUserForm initial={emptyDraft} save={createSubUser} />
    </div>
  );
}

/** /sub-users/:id/edit — change a sub-user's details. */
export function EditSubUserPage() {
  const { t } = useTranslation('appProfiles');
  const { id = '' } = useParams();
  const subUsers = useQuery(subUsersQuery());
  const subUser = subUsers.data?.find((each) => each.id === id);
  return (
    <div className="sub-users">
      <BackLink />
      <h1>{t('form.editTitle')}</h1>
      {subUsers.isPending ? <p role="status">{t('loading')}</p> : null}
      {subUsers.isError ? <Alert>{errorMessage(subUsers.error)}</Alert> : null}
      {subUsers.data !== undefined && subUser === undefined ? <Alert>{t('errors:subUser.notFound')}</Alert> : null}
      {subUser === undefined ? null : (
        <SubUserForm
          key={subUser.id}
          initial={draftOf(subUser)}
          save={(input) => updateSubUser(subUser.id, input)}
        />
      )}
    </div>
  );
}
