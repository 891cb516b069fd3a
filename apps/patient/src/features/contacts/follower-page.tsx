import { FOLLOWER_DATA_KINDS, nextInvitationStatus, type Contact, type FollowerDataKind } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { CONTACT_KEYS, followersQuery, removeFollower, resendInvitation, setHiddenKinds, updateFollower } from './contacts-api';
import { FollowerForm } from './follower-form';
import { Switch } from '../../ui/kit';
import { ConfirmDialog, useDateTime, useNowUntil } from './parts';
import { countdownText } from './rules';

/** Keeps the list's copy of a follower in step with the server's answer. */
function useStoreContact() {
  const queryClient = useQueryClient();
  return (contact: Contact) => {
    queryClient.setQueryData<Contact[]>(followersQuery().queryKey, (list) =>
      list?.map((entry) => (entry.id === contact.id ? contact : entry)),
    );
  };
}

/** Resend, disabled with a live m:ss countdown until the server's `resendAvailableAt` (spec §4, §9: 5 minutes). */
function ResendButton({ contact }: { contact: Contact }) {
  const { t } = useTranslation('appContacts');
  const store = useStoreContact();
  const availableAt = contact.resendAvailableAt === null ? null : Date.parse(contact.resendAvailableAt);
  const now = useNowUntil(availableAt);
  const resend = useMutation({ mutationFn: () => resendInvitation(contact.id), onSuccess: store });
  if (nextInvitationStatus(contact.invitationStatus, 'resend') === undefined) return null;
  const waitMs = availableAt === null ? 0 : availableAt - now;
  const countdownId = `resend-wait-${contact.id}`;
  return (
    <div className="resend">
      <button
        type="button"
        disabled={waitMs > 0 || resend.isPending}
        aria-describedby={waitMs > 0 ? countdownId : undefined}
        onClick={() => { resend.mutate(); }}
      >
        {resend.isPending ? t('follower.resending') : t('follower.resend')}
      </button>
      {waitMs > 0 ? (
        <p id={countdownId} className="hint" data-testid="resend-countdown">
          {t('follower.resendIn', { time: countdownText(waitMs) })}
        </p>
      ) : null}
      {resend.isSuccess && waitMs > 0 ? <p className="hint" role="status">{t('follower.resent')}</p> : null}
      {resend.isError ? <Alert>{errorMessage(resend.error)}</Alert> : null}
    </div>
  );
}

/** One switch per data kind, saved at once (spec §6: patients may hide data from followers). */
function HiddenKinds({ contact }: { contact: Contact }) {
  const { t } = useTranslation('appContacts');
  const store = useStoreContact();
  const save = useMutation({
    mutationFn: (hiddenKinds: FollowerDataKind[]) => setHiddenKinds(contact.id, { hiddenKinds }),
    onSuccess: store,
  });
  // What the switches show: the change being saved, else the server's answer.
  const hidden = new Set(save.isPending ? save.variables : contact.hiddenKinds);
  const toggle = (kind: FollowerDataKind, isHidden: boolean) => {
    const next = FOLLOWER_DATA_KINDS.filter((each) => (each === kind ? isHidden : hidden.has(each)));
    save.mutate(next);
  };
  return (
    <section className="card" aria-labelledby="hidden-heading">
      <h2 id="hidden-heading">{t('follower.hiddenTitle')}</h2>
      <p className="hint">{t('follower.hiddenHint')}</p>
      {contact.invitationStatus === 'CONFIRMED' ? null : <p className="hint">{t('follower.hiddenOnlyConfirmed')}</p>}
      <div className="switches">
        {FOLLOWER_DATA_KINDS.map((kind) => (
          <Switch
            key={kind}
            label={t(`kind.${kind}`)}
            checked={hidden.has(kind)}
            disabled={save.isPending}
            onChange={(isHidden) => { toggle(kind, isHidden); }}
          />
        ))}
      </div>
      <div aria-live="polite">
        {save.isSuccess ? <p className="hint">{t('follower.hiddenSaved')}</p> : null}
      </div>
      {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
    </section>
  );
}

function Details({ contact }: { contact: Contact }) {
  const { t } = useTranslation('appContacts');
  const dateTime = useDateTime();
  const store = useStoreContact();
  const [isEditing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <section className="card" aria-labelledby="follower-heading">
      <div className="card-title">
        <h1 id="follower-heading">
          {contact.name}
          {contact.favourite ? <span className="favourite" aria-label={t('followers.favourite')}> ★</span> : null}
        </h1>
      </div>
      <p className={`invitation-state state-${contact.invitationStatus.toLowerCase()}`} data-testid="invitation-state">
        {t(`state.${contact.invitationStatus}`)}
      </p>
      <p className="hint">{t('follower.phone', { phone: contact.phone })}</p>
      {contact.follower === null ? null : <p className="hint">{t('follower.account', { name: contact.follower.name })}</p>}
      <p className="hint">
        {contact.confirmedAt === null
          ? t('follower.sentAt', { time: dateTime(contact.lastSentAt) })
          : t('follower.confirmedAt', { time: dateTime(contact.confirmedAt) })}
      </p>
      <ResendButton contact={contact} />
      {isEditing ? (
        <FollowerForm
          initial={{ ...contact }}
          withPhone={false}
          submitLabel={t('form.save')}
          busyLabel={t('form.saving')}
          onCancel={() => { setEditing(false); }}
          onSubmit={async (form) => {
            store(
              await updateFollower(contact.id, {
                name: form.name,
                relationship: form.relationship,
                contactType: form.contactType,
                favourite: form.favourite,
              }),
            );
            setEditing(false);
            setSaved(true);
          }}
        />
      ) : (
        <>
          <p className="hint">
            {t(`type.${contact.contactType}`)} · {t(`relationship.${contact.relationship}`)}
          </p>
          {saved ? <p className="hint" role="status">{t('form.saved')}</p> : null}
          <button type="button" onClick={() => { setSaved(false); setEditing(true); }}>
            {t('follower.edit')}
          </button>
        </>
      )}
    </section>
  );
}

/** /contacts/followers/:contactId: one follower's state, details, resend, hidden data, removal. */
export function FollowerPage() {
  const { t } = useTranslation('appContacts');
  const { contactId } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const followers = useQuery(followersQuery());
  const [isRemoving, setRemoving] = useState(false);
  const remove = useMutation({
    mutationFn: (id: string) => removeFollower(id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.followers });
      void navigate('/contacts', { replace: true });
    },
  });
  const contact = followers.data?.find((entry) => entry.id === contactId);
  return (
    <div className="contacts-page">
      <p className="back">
        <Link to="/contacts">{t('follower.back')}</Link>
      </p>
      {followers.isPending ? <p role="status">{t('loading')}</p> : null}
      {followers.isError ? <Alert>{errorMessage(followers.error)}</Alert> : null}
      {followers.data && contact === undefined ? <p className="empty">{t('follower.notFound')}</p> : null}
      {contact === undefined ? null : (
        <>
          <Details contact={contact} />
          <HiddenKinds contact={contact} />
          <button type="button" className="danger wide" onClick={() => { remove.reset(); setRemoving(true); }}>
            {t('follower.remove')}
          </button>
          {isRemoving ? (
            <ConfirmDialog
              title={t('follower.removeTitle', { name: contact.name })}
              body={t('follower.removeBody', { name: contact.name })}
              confirm={remove.isPending ? t('follower.removing') : t('follower.removeConfirm')}
              busy={remove.isPending}
              error={remove.isError ? errorMessage(remove.error) : undefined}
              onConfirm={() => { remove.mutate(contact.id); }}
              onCancel={() => { setRemoving(false); }}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
