import { DEVICE_MODELS, parseDeviceQr, type BindMyDevice, type DeviceModel } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId, useRef, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { bindDevice, DEVICES_KEY } from './devices-api';
import { log } from './devices-runtime';
import { QrPhotoPicker } from './qr-photo';
import { QrScanner } from './qr-scanner';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import './devices.css';
import './qr.css';

/**
 * Bind a watch by its serial number, typed or read from the QR code on its box (camera or photo).
 * A code read fills the model and serial; the patient checks them and presses Bind. Not for a
 * view-only profile (a followed patient's watches are theirs to bind).
 */
export function BindPage() {
  const { t } = useTranslation('appDevices');
  const viewOnly = useViewOnlyProfile();
  if (viewOnly === null) return <BindForm />;
  return (
    <div className="devices">
      <Link to="/devices" className="back-link">
        {t('bind.back')}
      </Link>
      <h1>{t('bind.title')}</h1>
      <ViewOnlyNotice profile={viewOnly} />
    </div>
  );
}

function BindForm() {
  const { t } = useTranslation('appDevices');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const modelId = useId();
  const [model, setModel] = useState<DeviceModel>('V19');
  const [serial, setSerial] = useState('');
  const [serialError, setSerialError] = useState<string | undefined>();
  const [scanning, setScanning] = useState(false);
  const [scanProblem, setScanProblem] = useState<string | null>(null);
  const [scanned, setScanned] = useState<BindMyDevice | null>(null);
  const submitButton = useRef<HTMLButtonElement>(null);
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
  const onQr = useCallback(
    (text: string) => {
      setScanning(false);
      const read = parseDeviceQr(text);
      if (read === null) {
        setScanProblem(t('bind.badQr'));
        return;
      }
      setScanProblem(null);
      setSerialError(undefined);
      setModel(read.model);
      setSerial(read.serialNumber);
      setScanned(read);
      submitButton.current?.focus();
    },
    [t],
  );
  const onScanProblem = useCallback((message: string) => {
    setScanning(false);
    setScanProblem(message);
  }, []);
  const startReading = () => {
    setScanProblem(null);
    setScanned(null);
  };

  return (
    <div className="devices">
      <Link to="/devices" className="back-link">
        {t('bind.back')}
      </Link>
      <h1>{t('bind.title')}</h1>
      <section className="card qr-card">
        {scanProblem ? <Alert>{scanProblem}</Alert> : null}
        {scanning ? <QrScanner onText={onQr} onProblem={onScanProblem} /> : null}
        <div className="actions">
          {scanning ? (
            <button type="button" onClick={() => { setScanning(false); }}>
              {t('bind.stopScan')}
            </button>
          ) : (
            <button type="button" onClick={() => { startReading(); setScanning(true); }}>
              {t('bind.scan')}
            </button>
          )}
          <QrPhotoPicker onText={onQr} onProblem={onScanProblem} onStart={() => { startReading(); setScanning(false); }} />
        </div>
      </section>
      <form className="card" onSubmit={submit} noValidate>
        {bind.isError ? <Alert>{errorMessage(bind.error)}</Alert> : null}
        {scanned?.model === model && scanned.serialNumber === serial ? (
          <Alert tone="info">{t('bind.qrRead', { model: scanned.model, serial: scanned.serialNumber })}</Alert>
        ) : null}
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
        <button ref={submitButton} type="submit" className="primary" disabled={bind.isPending}>
          {bind.isPending ? t('bind.binding') : t('bind.submit')}
        </button>
      </form>
    </div>
  );
}
