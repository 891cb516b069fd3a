import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveProfile } from '../../api/profile-store';
import { SosFlow } from './sos-flow';

/**
 * The header's SOS button (spec §4: a 5 s countdown that can be cancelled, then the server's SOS
 * flow). Not shown while a profile that cannot raise SOS is active (spec §6: SOS is for main users
 * only, never a sub-user; a followed patient's SOS is theirs to raise).
 */
export function SosButton() {
  const { t } = useTranslation('appAlerts');
  const [isOpen, setOpen] = useState(false);
  const profile = useActiveProfile();
  if (profile !== null && !profile.canRaiseSos) return null;
  return (
    <>
      <button
        type="button"
        className="sos-button"
        aria-label={t('sos.buttonLabel')}
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
        }}
      >
        {t('sos.button')}
      </button>
      {isOpen ? (
        <SosFlow
          onClose={() => {
            setOpen(false);
          }}
        />
      ) : null}
    </>
  );
}
