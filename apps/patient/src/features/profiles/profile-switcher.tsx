import type { AppProfile } from '@rpm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { setActiveProfile, useActiveProfile, type ActiveProfile } from '../../api/profile-store';
import { profilesQuery, switchProfile } from './profiles-api';
import './profiles.css';

const isSameProfile = (active: ActiveProfile, profile: AppProfile) =>
  active.patientId === profile.patientId && active.kind === profile.kind;

/** Switches the app to a profile (null: the own record) and opens the home page for it. */
export function useSwitchProfile(): (profile: AppProfile | null) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (profile: AppProfile | null) => {
      await navigate('/');
      await switchProfile(queryClient, profile);
    },
    [navigate, queryClient],
  );
}

/**
 * Keeps the active profile in step with the server's list: a sub-user deleted or a patient no
 * longer followed sends the app back to the own record; a renamed one or changed rights are
 * taken over.
 */
function useActiveProfileCheck(profiles: AppProfile[] | undefined) {
  const active = useActiveProfile();
  const switchTo = useSwitchProfile();
  const current = active === null ? undefined : profiles?.find((profile) => isSameProfile(active, profile));
  const isGone = active !== null && profiles !== undefined && current === undefined;
  useEffect(() => {
    if (isGone) void switchTo(null);
  }, [isGone, switchTo]);
  useEffect(() => {
    if (active === null || current === undefined) return;
    if (current.name !== active.name || current.readOnly !== active.readOnly || current.canRaiseSos !== active.canRaiseSos)
      setActiveProfile({ ...active, name: current.name, readOnly: current.readOnly, canRaiseSos: current.canRaiseSos });
  }, [active, current]);
}

function ProfileTag({ profile }: { profile: AppProfile }) {
  const { t } = useTranslation('appProfiles');
  if (profile.kind === 'OWN') return <span className="profile-tag">{t('switcher.own')}</span>;
  if (profile.readOnly) return <span className="profile-tag tag-view-only">{t('switcher.viewOnly')}</span>;
  return <span className="profile-tag">{t('switcher.subUser')}</span>;
}

/**
 * The header's profile switcher (spec §2 sub-user management, My Patients): the active profile's
 * name; its menu lists the own record, the sub-users and the followed patients (view only).
 */
export function ProfileSwitcher() {
  const { t } = useTranslation('appProfiles');
  const active = useActiveProfile();
  const profiles = useQuery(profilesQuery());
  const switchTo = useSwitchProfile();
  const [isOpen, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  useActiveProfileCheck(profiles.data);

  useEffect(() => {
    if (!isOpen) return;
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [isOpen]);

  const own = profiles.data?.find((profile) => profile.kind === 'OWN');
  const name = active?.name ?? own?.name ?? t('switcher.me');
  const choose = (profile: AppProfile) => {
    setOpen(false);
    void switchTo(profile.kind === 'OWN' ? null : profile);
  };

  return (
    <div className="profile-switcher" ref={rootRef}>
      <button
        ref={toggleRef}
        type="button"
        className="profile-toggle"
        aria-expanded={isOpen}
        aria-controls={menuId}
        aria-label={t('switcher.label', { name })}
        onClick={() => {
          setOpen((open) => !open);
        }}
      >
        <span className="profile-toggle-name">{name}</span>
        <span aria-hidden="true" className="profile-caret">▾</span>
      </button>
      {isOpen ? (
        <div id={menuId} className="profile-menu">
          <p className="profile-menu-title">{t('switcher.title')}</p>
          {profiles.isPending ? <p role="status" className="hint">{t('loading')}</p> : null}
          {profiles.isError ? <p role="alert" className="field-error">{t('switcher.loadFailed')}</p> : null}
          {profiles.data ? (
            <ul>
              {profiles.data.map((profile) => {
                const isCurrent = active === null ? profile.kind === 'OWN' : isSameProfile(active, profile);
                return (
                  <li key={`${profile.kind}-${profile.patientId}`}>
                    <button
                      type="button"
                      className="profile-choice"
                      aria-current={isCurrent ? 'true' : undefined}
                      onClick={() => {
                        choose(profile);
                      }}
                    >
                      <span className="profile-choice-name">{profile.name}</span>
                      <ProfileTag profile={profile} />
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <Link
            className="profile-manage"
            to="/sub-users"
            onClick={() => {
              setOpen(false);
            }}
          >
            {t('switcher.manage')}
          </Link>
        </div>
      ) : null}
    </div>
  );
}

/** While another profile than the own record is active: whose data is shown, and the way back. */
export function ProfileBanner() {
  const { t } = useTranslation('appProfiles');
  const active = useActiveProfile();
  const switchTo = useSwitchProfile();
  if (active === null) return null;
  return (
    <div className={`profile-banner${active.readOnly ? ' is-view-only' : ''}`} role="status">
      <p>{active.readOnly ? t('banner.viewingReadOnly', { name: active.name }) : t('banner.viewing', { name: active.name })}</p>
      <button
        type="button"
        onClick={() => {
          void switchTo(null);
        }}
      >
        {t('banner.backToMe')}
      </button>
    </div>
  );
}
