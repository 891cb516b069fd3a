import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { decodeDrawable, FRAME_MAX_SIDE } from './qr-image';

interface DetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => DetectorLike;
const barcodeDetector = () => (window as Window & { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/** How often a camera frame is looked at for a QR code. */
const FRAME_INTERVAL_MS = 250;

/**
 * A reader of one camera frame: the browser's BarcodeDetector where it has one, else jsQR on the
 * frame drawn on a canvas.
 */
function frameReader(): (video: HTMLVideoElement) => Promise<string | null> {
  const Detector = barcodeDetector();
  if (Detector) {
    const detector = new Detector({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const canvas = document.createElement('canvas');
  return (video) => decodeDrawable(video, canvas, FRAME_MAX_SIDE, false);
}

/** Reads QR codes from the camera; calls onText with the first one found. */
export function QrScanner({ onText, onProblem }: { onText: (text: string) => void; onProblem: (message: string) => void }) {
  const { t } = useTranslation('appDevices');
  const video = useRef<HTMLVideoElement>(null);
  // The camera starts once per scanner, whatever callbacks a re-render passes.
  const callbacks = useRef({ onText, onProblem });
  useEffect(() => {
    callbacks.current = { onText, onProblem };
  });
  useEffect(() => {
    if (!('mediaDevices' in navigator)) {
      callbacks.current.onProblem(t('bind.scanUnsupported'));
      return;
    }
    let stream: MediaStream | undefined;
    let stopped = false;
    const isStopped = () => stopped;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = frameReader();
    const scan = async () => {
      if (stopped || !video.current) return;
      const ready = video.current.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA;
      const text = ready ? await read(video.current).catch(() => null) : null;
      if (isStopped()) return;
      if (text !== null) callbacks.current.onText(text);
      else timer = setTimeout(() => void scan(), FRAME_INTERVAL_MS);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (media) => {
        stream = media;
        if (stopped || !video.current) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        video.current.srcObject = media;
        await video.current.play();
        void scan();
      })
      .catch(() => {
        if (!stopped) callbacks.current.onProblem(t('bind.cameraDenied'));
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [t]);
  return (
    <div className="qr-scanner">
      <p className="hint">{t('bind.scanning')}</p>
      <video ref={video} muted playsInline aria-label={t('bind.scan')} />
    </div>
  );
}
