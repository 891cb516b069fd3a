import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NotAPictureError, readQrFromFile } from './qr-image';

/**
 * "Pick a photo of the QR code": works in every browser (a phone offers its camera or gallery).
 * The photo is read in the page; it is never uploaded.
 */
export function QrPhotoPicker({
  onText,
  onProblem,
  onStart,
}: {
  onText: (text: string) => void;
  onProblem: (message: string) => void;
  onStart: () => void;
}) {
  const { t } = useTranslation('appDevices');
  const input = useRef<HTMLInputElement>(null);
  const [reading, setReading] = useState(false);
  const picked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same photo may be picked again after a failure.
    event.target.value = '';
    if (!file) return;
    onStart();
    setReading(true);
    try {
      const text = await readQrFromFile(file);
      if (text === null) onProblem(t('bind.photoNoQr'));
      else onText(text);
    } catch (error) {
      onProblem(t(error instanceof NotAPictureError ? 'bind.photoUnreadable' : 'bind.photoNoQr'));
    } finally {
      setReading(false);
    }
  };
  return (
    <>
      <input ref={input} type="file" accept="image/*" hidden onChange={(event) => void picked(event)} />
      <button type="button" disabled={reading} aria-busy={reading} onClick={() => input.current?.click()}>
        {reading ? t('bind.photoReading') : t('bind.photo')}
      </button>
    </>
  );
}
