import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CONTACT_KEYS, inviteFollower } from './contacts-api';
import { EMPTY_FORM, FollowerForm } from './follower-form';

/** /contacts/invite: invite a person by phone to follow the patient (spec §2 contacts, §4 relative invitation). */
export function InvitePage() {
  const { t } = useTranslation('appContacts');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <div className="contacts-page">
      <p className="back">
        <Link to="/contacts">{t('follower.back')}</Link>
      </p>
      <h1>{t('form.inviteTitle')}</h1>
      <section className="card">
        <p className="hint form-intro">{t('form.inviteHint')}</p>
        <FollowerForm
          initial={EMPTY_FORM}
          withPhone
          submitLabel={t('form.send')}
          busyLabel={t('form.sending')}
          onSubmit={async (form) => {
            const contact = await inviteFollower(form);
            await queryClient.invalidateQueries({ queryKey: CONTACT_KEYS.followers });
            void navigate(`/contacts/followers/${contact.id}`, { replace: true });
          }}
        />
      </section>
    </div>
  );
}
