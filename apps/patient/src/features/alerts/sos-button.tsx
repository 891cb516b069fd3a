import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SosFlow } from './sos-flow';

/** The header's SOS button (spec §4: a 5 s countdown that can be cancelled, then the server's SOS flow). */
export function SosButton() {
  const { t } = useTranslation('appAlerts');
  const [isOpen, setOpen] = useState(false);
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
