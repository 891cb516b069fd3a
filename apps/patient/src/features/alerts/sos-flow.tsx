import { useMutation } from '@tanstack/react-query';
import { SOS_COUNTDOWN_SECONDS, SOS_MESSAGE_CHOICES, type SosMessageChoice } from '@rpm/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { raiseSos } from './alerts-api';
import { FullScreenDialog } from './modal';
import { SosRecording } from './sos-recording';
import { useCountdown } from './use-countdown';

type Location = { lat: number; lng: number } | null;

/** Where the phone is, if the patient allows it; null when refused, unavailable or too slow. */
function locate(): Promise<Location> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => {
        resolve({ lat: position.coords.latitude, lng: position.coords.longitude });
      },
      () => {
        resolve(null);
      },
      { enableHighAccuracy: true, timeout: (SOS_COUNTDOWN_SECONDS - 1) * 1000, maximumAge: 60_000 },
    );
  });
}

/**
 * The SOS after the button (spec §4): a 5-second countdown with the message choice, which the
 * patient can cancel (nothing is sent) or cut short; then the SOS goes to the server with the
 * phone's location and the message, and the patient may add a voice recording to the case.
 */
export function SosFlow({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('appAlerts');
  const [deadline] = useState(() => Date.now() + SOS_COUNTDOWN_SECONDS * 1000);
  const [message, setMessage] = useState<SosMessageChoice>('NEED_HELP');
  const location = useRef<Promise<Location> | null>(null);
  location.current ??= locate();
  const left = useCountdown(deadline) ?? SOS_COUNTDOWN_SECONDS;
  const send = useMutation({
    mutationFn: async (choice: SosMessageChoice) => {
      const where = await (location.current ?? Promise.resolve(null));
      const raised = await raiseSos({ source: 'SOS_BUTTON', location: where, message: choice });
      return { ...raised, located: where !== null };
    },
  });
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancelButton.current?.focus();
  }, []);
  const isCounting = send.isIdle;
  useEffect(() => {
    if (isCounting && left === 0) send.mutate(message);
  }, [isCounting, left, message, send]);

  return (
    <FullScreenDialog labelId="sos-title" describedId="sos-explain" tone="danger" testId="sos-dialog">
      <h2 id="sos-title">{t('sos.title')}</h2>
      {isCounting ? (
        <>
          <p className="countdown" aria-live="polite" data-testid="sos-countdown">
            <span className="countdown-number" aria-hidden="true">{left}</span>
            <span>{t('sos.countdown', { count: left })}</span>
          </p>
          <p id="sos-explain">{t('sos.explain')}</p>
          <fieldset className="message-choice">
            <legend>{t('sos.messageLabel')}</legend>
            {SOS_MESSAGE_CHOICES.map((choice) => (
              <label key={choice} className="choice">
                <input
                  type="radio"
                  name="sos-message"
                  value={choice}
                  checked={message === choice}
                  onChange={() => {
                    setMessage(choice);
                  }}
                />
                <span>{t(`message.${choice}`)}</span>
              </label>
            ))}
          </fieldset>
          <div className="dialog-actions">
            <button ref={cancelButton} type="button" className="sos-cancel" onClick={onClose}>
              {t('sos.cancel')}
            </button>
            <button
              type="button"
              className="sos-send-now"
              onClick={() => {
                send.mutate(message);
              }}
            >
              {t('sos.sendNow')}
            </button>
          </div>
        </>
      ) : send.isPending ? (
        <p id="sos-explain" role="status">{t('sos.sending')}</p>
      ) : send.isError ? (
        <>
          <p id="sos-explain" className="dialog-error" role="alert">
            {t('sos.failed')} {errorMessage(send.error)}
          </p>
          <div className="dialog-actions">
            <button
              type="button"
              className="sos-send-now"
              onClick={() => {
                send.mutate(message);
              }}
            >
              {t('sos.retry')}
            </button>
            <button type="button" className="dialog-close" onClick={onClose}>
              {t('sos.close')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p id="sos-explain" role="status" className="dialog-outcome" data-testid="sos-sent">
            {t('sos.sent')} {send.data.located ? t('sos.locationShared') : t('sos.locationMissing')}
          </p>
          <SosRecording sosCaseId={send.data.sosCaseId} />
          <div className="dialog-actions">
            <button type="button" className="dialog-close" onClick={onClose}>
              {t('sos.close')}
            </button>
          </div>
        </>
      )}
    </FullScreenDialog>
  );
}
