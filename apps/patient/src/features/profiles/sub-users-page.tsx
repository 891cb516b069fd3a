import { ageInYears, SUB_USER_LIMIT, type SubUser } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useActiveProfile } from '../../api/profile-store';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { useSwitchProfile } from './profile-switcher';
import { deleteSubUser, PROFILES_KEY, subUsersQuery } from './profiles-api';
import './profiles.css';

export const fullName = (person: { firstName: string; lastName: string }) => `${person.firstName} ${person.lastName}`.trim();

function SubUserItem({ subUser }: { subUser: SubUser }) {
  const { t } = useTranslation('appProfiles');
  const queryClient = useQueryClient();
  const switchTo = useSwitchProfile();
  const active = useActiveProfile();
  const [isConfirming, setConfirming] = useState(false);
  const name = fullName(subUser);
  const remove = useMutation({
    mutationFn: () => deleteSubUser(subUser.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROFILES_KEY }),
  });
  const isActive = active?.patientId === subUser.id;
  return (
    <li data-sub-user={subUser.id}>
      <div className="sub-user-head">
        <h3 className="sub-user-name">{name}</h3>
        <span className={`status-pill status-${subUser.status.toLowerCase()}`}>{t(`health:status.${subUser.status}`)}</span>
      </div>
      <p className="sub-user-facts">
        {t(`relation.${subUser.relation}`)} · {t('list.age', { count: ageInYears(subUser.birthday) })}
      </p>
      <div className="sub-user-actions">
        {isActive ? null : (
          <button
            type="button"
            onClick={() => {
              void switchTo({
                patientId: subUser.id,
                kind: 'SUB_USER',
                name,
                status: subUser.status,
                readOnly: false,
                canRaiseSos: false,
                hiddenKinds: [],
              });
            }}
          >
            {t('list.open')}
          </button>
        )}
        <Link to={`/sub-users/${subUser.id}/edit`} aria-label={t('list.editLabel', { name })}>
          {t('list.edit')}
        </Link>
        <button
          type="button"
          className="danger"
          aria-label={t('list.deleteLabel', { name })}
          aria-expanded={isConfirming}
          onClick={() => {
            setConfirming(true);
          }}
        >
          {t('list.delete')}
        </button>
      </div>
      {isConfirming ? (
        <div className="sub-user-confirm" role="group" aria-label={t('delete.title', { name })}>
          <p>{t('delete.question', { name })}</p>
          {remove.isError ? <Alert>{errorMessage(remove.error)}</Alert> : null}
          <div className="sub-user-actions">
            <button type="button" className="danger" disabled={remove.isPending} onClick={() => { remove.mutate(); }}>
              {remove.isPending ? t('delete.deleting') : t('delete.confirm')}
            </button>
            <button type="button" disabled={remove.isPending} onClick={() => { setConfirming(false); remove.reset(); }}>
              {t('delete.cancel')}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

/** /sub-users — the sub-user profiles the account holds (spec §3 Sub-user): list, add, edit, delete. */
export function SubUsersPage() {
  const { t } = useTranslation('appProfiles');
  const subUsers = useQuery(subUsersQuery());
  const isFull = (subUsers.data?.length ?? 0) >= SUB_USER_LIMIT;
  return (
    <div className="sub-users">
      <h1>{t('list.title')}</h1>
      <p className="hint">{t('list.intro')}</p>
      <section className="card" aria-labelledby="sub-users-heading">
        <h2 id="sub-users-heading" className="visually-hidden">{t('list.title')}</h2>
        {subUsers.isPending ? <p role="status">{t('loading')}</p> : null}
        {subUsers.isError ? (
          <>
            <Alert>{errorMessage(subUsers.error)}</Alert>
            <button type="button" onClick={() => void subUsers.refetch()}>{t('retry')}</button>
          </>
        ) : null}
        {subUsers.data?.length === 0 ? <p className="hint">{t('list.empty')}</p> : null}
        {subUsers.data && subUsers.data.length > 0 ? (
          <ul className="sub-user-list">
            {subUsers.data.map((subUser) => (
              <SubUserItem key={subUser.id} subUser={subUser} />
            ))}
          </ul>
        ) : null}
      </section>
      {subUsers.data === undefined ? null : isFull ? (
        <Alert tone="info">{t('limitReached', { limit: SUB_USER_LIMIT })}</Alert>
      ) : (
        <Link className="button primary" to="/sub-users/new">
          {t('list.add')}
        </Link>
      )}
    </div>
  );
}
