import { DEVICE_MODELS, parseDeviceQr, type DeviceModel } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { bindDevice, DEVICES_KEY } from './devices-api';
import { log } from './devices-runtime';
import './devices.css';

interface DetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => DetectorLike;
const barcodeDetector = () => (window as Window & { BarcodeDetector?: DetectorClass }).BarcodeDetector;

/** Reads QR codes from the camera with the browser's BarcodeDetector; calls onText with the first one. */
function QrScanner({ onText, onProblem }: { onText: (text: string) => void; onProblem: (message: string) => void }) {
  const { t } = useTranslation('appDevices');
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const Detector = barcodeDetector();
    if (!Detector) {
      onProblem(t('bind.scanUnsupported'));
      return;
    }
    let stream: MediaStream | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ['qr_code'] });
    const scan = async () => {
      if (stopped || !video.current) return;
      const found = await detector.detect(video.current).catch(() => []);
      if (found[0]) onText(found[0].rawValue);
      else setTimeout(() => void scan(), 300);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' } })
      .then(async (media) => {
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        void scan();
      })
      .catch(() => {
        onProblem(t('bind.cameraDenied'));
      });
    return () => {
      stopped = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [onText, onProblem, t]);
  return (
    <div className="qr-scanner">
      <p className="hint">{t('bind.scanning')}</p>
      <video ref={video} muted playsInline aria-label={t('bind.scan')} />
    </div>
  );
}

/** Bind a watch by its serial number, typed or read from the QR code on its box. */
export function BindPage() {
  const { t } = useTranslation('appDevices');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const modelId = useId();
  const [model, setModel] = useState<DeviceModel>('V19');
  const [serial, setSerial] = useState('');
  const [serialError, setSerialError] = useState<string | undefined>();
  const [scanning, setScanning] = useState(false);
  const [scanProblem, setScanProblem] = useState<string | null>(null);
  const bind = useMutation({
    mutationFn: bindDevice,
    onSuccess: async (device) => {
      log(`watch ${device.model} ${device.serialNumber} bound`);
      await queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
      void navigate('/devices', { state: { bound: `${device.model} ${device.serialNumber}` } });
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (serial.trim() === '') {
      setSerialError(t('bind.required'));
      return;
    }
    setSerialError(undefined);
    bind.mutate({ model, serialNumber: serial.trim() });
  };
  const onQr = (text: string) => {
    setScanning(false);
    const read = parseDeviceQr(text);
    if (read === null) {
      setScanProblem(t('bind.badQr'));
      return;
    }
    setModel(read.model);
    setSerial(read.serialNumber);
    bind.mutate(read);
  };

  return (
    <div className="devices">
      <Link to="/devices" className="back-link">
        {t('bind.back')}
      </Link>
      <h1>{t('bind.title')}</h1>
      <section className="card">
        {scanProblem ? <Alert>{scanProblem}</Alert> : null}
        {scanning ? (
          <>
            <QrScanner onText={onQr} onProblem={(message) => { setScanning(false); setScanProblem(message); }} />
            <button type="button" onClick={() => { setScanning(false); }}>
              {t('bind.stopScan')}
            </button>
          </>
        ) : (
          <button type="button" onClick={() => { setScanProblem(null); setScanning(true); }}>
            {t('bind.scan')}
          </button>
        )}
      </section>
      <form className="card" onSubmit={submit} noValidate>
        {bind.isError ? <Alert>{errorMessage(bind.error)}</Alert> : null}
        <div className="field">
          <label htmlFor={modelId}>{t('bind.model')}</label>
          <select id={modelId} value={model} onChange={(event) => { setModel(event.target.value as DeviceModel); }}>
            {DEVICE_MODELS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label={t('bind.serial')}
          hint={t('bind.serialHint')}
          error={serialError}
          value={serial}
          autoComplete="off"
          onChange={(event) => { setSerial(event.target.value); }}
        />
        <button type="submit" className="primary" disabled={bind.isPending}>
          {bind.isPending ? t('bind.binding') : t('bind.submit')}
        </button>
      </form>
    </div>
  );
}
