import { invitationConfirmSchema, type Contact, type ErrorCode, type FollowedPatient, type ReceivedInvitation } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useActiveProfile } from '../../api/profile-store';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { ageOf } from '../home/home-page';
import {
  CONTACT_KEYS,
  confirmInvitation,
  declineInvitation,
  FOLLOWED_REFRESH_MS,
  followersOwner,
  followersQuery,
  followingQuery,
  invitationsQuery,
  openFollowedPatient,
  stopFollowing,
} from './contacts-api';
import { ConfirmDialog, useDateTime } from './parts';

const SECTIONS = ['followers', 'following', 'invitations'] as const;
type Section = (typeof SECTIONS)[number];

function QueryState({ query }: { query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown } }) {
  const { t } = useTranslation('appContacts');
  if (query.isPending) return <p role="status">{t('loading')}</p>;
  if (!query.isError) return null;
  return (
    <Alert>
      {errorMessage(query.error)}{' '}
      <button type="button" className="link-button" onClick={() => void query.refetch()}>
        {t('retry')}
      </button>
    </Alert>
  );
}

function FollowerItem({ contact }: { contact: Contact }) {
  const { t } = useTranslation('appContacts');
  return (
    <li>
      <Link className="contact-link" to={`/contacts/followers/${contact.id}`} data-testid="follower-item">
        <span className="contact-name">
          {contact.name}
          {contact.favourite ? <span className="favourite" aria-label={t('followers.favourite')}> ★</span> : null}
        </span>
        <span className={`invitation-state state-${contact.invitationStatus.toLowerCase()}`}>
          {t(`state.${contact.invitationStatus}`)}
        </span>
        <span className="hint">
          {t(`type.${contact.contactType}`)} · {t(`relationship.${contact.relationship}`)}
        </span>
      </Link>
    </li>
  );
}

function FollowersSection() {
  const { t } = useTranslation('appContacts');
  const followers = useQuery(followersQuery());
  const subUser = followersOwner();
  return (
    <section className="card" aria-labelledby="followers-heading">
      <h2 id="followers-heading">{subUser === null ? t('hub.followers') : t('hub.followersOf', { name: subUser.name })}</h2>
      <p className="hint">{t('followers.intro')}</p>
      <QueryState query={followers} />
      {followers.data?.length === 0 ? <p className="empty">{t('followers.empty')}</p> : null}
      {followers.data && followers.data.length > 0 ? (
        <ul className="contact-list">
          {followers.data.map((contact) => (
            <FollowerItem key={contact.id} contact={contact} />
          ))}
        </ul>
      ) : null}
      <Link className="button" to="/contacts/invite">
        {t('followers.invite')}
      </Link>
    </section>
  );
}

function FollowedItem({ patient, onStop }: { patient: FollowedPatient; onStop: () => void }) {
  const { t } = useTranslation('appContacts');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const age = patient.lastReadingAt === null ? null : ageOf(patient.lastReadingAt, Date.now());
  return (
    <li className={`followed status-border-${patient.status.toLowerCase()}`} data-testid="followed-patient">
      {patient.openSos === null ? null : (
        <p className="sos-banner" role="alert">
          <strong>{t('following.sos', { name: patient.name })}</strong>{' '}
          <span>{t('following.sosSince', { time: dateTime(patient.openSos.openedAt) })}</span>
        </p>
      )}
      <div className="followed-head">
        <span className="contact-name">{patient.name}</span>
        <span className={`status-pill status-${patient.status.toLowerCase()}`}>
          {t('following.status', { status: t(`health:status.${patient.status}`) })}
        </span>
      </div>
      <p className="hint">
        {age === null ? t('following.noReading') : t('following.lastReading', { time: t(`patient:${age.key}`, { count: age.count }) })}
      </p>
      <div className="row-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            void openFollowedPatient(queryClient, patient).then(() => navigate('/health'));
          }}
        >
          {t('following.open', { name: patient.name })}
        </button>
        <button type="button" onClick={onStop}>
          {t('following.stop')}
        </button>
      </div>
    </li>
  );
}

function FollowingSection() {
  const { t } = useTranslation('appContacts');
  const queryClient = useQueryClient();
  const following = useQuery({ ...followingQuery(), refetchInterval: FOLLOWED_REFRESH_MS });
  const [stopping, setStopping] = useState<FollowedPatient | null>(null);
  const stop = useMutation({
    mutationFn: (contactId: string) => stopFollowing(contactId),
    onSuccess: () => {
      setStopping(null);
      void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.following });
      void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.profiles });
    },
  });
  return (
    <section className="card" aria-labelledby="following-heading">
      <h2 id="following-heading">{t('hub.following')}</h2>
      <p className="hint">{t('following.intro')}</p>
      <QueryState query={following} />
      {following.data?.length === 0 ? <p className="empty">{t('following.empty')}</p> : null}
      {following.data && following.data.length > 0 ? (
        <ul className="contact-list">
          {following.data.map((patient) => (
            <FollowedItem key={patient.contactId} patient={patient} onStop={() => { stop.reset(); setStopping(patient); }} />
          ))}
        </ul>
      ) : null}
      {stopping === null ? null : (
        <ConfirmDialog
          title={t('following.stopTitle', { name: stopping.name })}
          body={t('following.stopBody', { name: stopping.name })}
          confirm={t('following.stopConfirm')}
          busy={stop.isPending}
          error={stop.isError ? errorMessage(stop.error) : undefined}
          onConfirm={() => { stop.mutate(stopping.contactId); }}
          onCancel={() => { setStopping(null); }}
        />
      )}
    </section>
  );
}

/** The server's refusals about the code, said under the code field. */
const CODE_ERRORS: readonly ErrorCode[] = ['invitation.wrongCode', 'invitation.tooManyAttempts', 'invitation.codeExpired'];
const isCodeError = (error: unknown) => error instanceof ApiError && error.code !== undefined && CODE_ERRORS.includes(error.code);

/**
 * An invitation sent to the account's phone. Confirming needs the code of the invitation SMS
 * (only the holder of the invited phone has it); its refusals show under the code field, any
 * other under the invitation.
 */
function InvitationItem({ invitation }: { invitation: ReceivedInvitation }) {
  const { t } = useTranslation('appContacts');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [codeNeeded, setCodeNeeded] = useState(false);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.invitations });
    void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.following });
    void queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.profiles });
  };
  const confirm = useMutation({
    mutationFn: (body: { code: string }) => confirmInvitation(invitation.id, body),
    onSuccess: () => {
      refresh();
      // The patient now followed shows under My patients.
      void navigate('/contacts?section=following', { replace: true });
    },
  });
  const decline = useMutation({ mutationFn: () => declineInvitation(invitation.id), onSuccess: refresh });
  const busy = confirm.isPending || decline.isPending;
  const failed = confirm.error ?? decline.error;
  const codeError = codeNeeded ? t('invitations.codeNeeded') : isCodeError(confirm.error) ? errorMessage(confirm.error) : undefined;
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    decline.reset();
    const checked = invitationConfirmSchema.safeParse({ code });
    setCodeNeeded(!checked.success);
    if (checked.success) confirm.mutate(checked.data);
  };
  return (
    <li className="invitation" data-testid="invitation">
      <p className="contact-name">{t('invitations.from', { name: invitation.patientName })}</p>
      <p className="hint">
        {t('invitations.as', { type: t(`type.${invitation.contactType}`), relationship: t(`relationship.${invitation.relationship}`) })}
      </p>
      <p className="hint">{t('invitations.sentAt', { time: dateTime(invitation.sentAt) })}</p>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('invitations.code')}
          hint={t('invitations.codeHint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          error={codeError}
          onChange={(event) => {
            setCode(event.target.value.replace(/\D/g, ''));
            setCodeNeeded(false);
            confirm.reset();
          }}
        />
        {failed && !isCodeError(failed) ? <Alert>{errorMessage(failed)}</Alert> : null}
        <div className="row-actions">
          <button type="submit" className="primary" disabled={busy}>
            {t('invitations.confirm')}
          </button>
          <button type="button" disabled={busy} onClick={() => { confirm.reset(); decline.mutate(); }}>
            {t('invitations.decline')}
          </button>
        </div>
      </form>
    </li>
  );
}

function InvitationsSection() {
  const { t } = useTranslation('appContacts');
  const invitations = useQuery(invitationsQuery());
  return (
    <section className="card" aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">{t('hub.invitations')}</h2>
      <p className="hint">{t('invitations.intro')}</p>
      <QueryState query={invitations} />
      {invitations.data?.length === 0 ? <p className="empty">{t('invitations.empty')}</p> : null}
      {invitations.data && invitations.data.length > 0 ? (
        <ul className="contact-list">
          {invitations.data.map((invitation) => (
            <InvitationItem key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * /contacts (spec §2 patient app contacts): the account's followers, the patients it follows
 * ("My patients") and the invitations sent to its phone, one section at a time (`?section=`).
 */
export function ContactsPage() {
  const { t } = useTranslation('appContacts');
  const [params] = useSearchParams();
  const asked = params.get('section');
  const section: Section = SECTIONS.find((value) => value === asked) ?? 'followers';
  const waiting = useQuery(invitationsQuery()).data?.length ?? 0;
  // Re-rendered on a profile switch: the followers shown are the sub-user's on screen, if any.
  const subUser = useActiveProfile()?.kind === 'SUB_USER';
  return (
    <div className="contacts-page">
      <h1>{t('hub.title')}</h1>
      <nav className="section-tabs" aria-label={t('hub.sections')}>
        {SECTIONS.map((value) => (
          <Link key={value} to={`/contacts?section=${value}`} replace aria-current={value === section ? 'page' : undefined}>
            {value === 'followers' && subUser ? t('hub.followersShort') : t(`hub.${value}`)}
            {value === 'invitations' && waiting > 0 ? (
              <span className="tab-badge" aria-label={t('hub.invitationsBadge', { count: waiting })}>
                {waiting}
              </span>
            ) : null}
          </Link>
        ))}
      </nav>
      {section === 'followers' ? <FollowersSection /> : null}
      {section === 'following' ? <FollowingSection /> : null}
      {section === 'invitations' ? <InvitationsSection /> : null}
    </div>
  );
}
