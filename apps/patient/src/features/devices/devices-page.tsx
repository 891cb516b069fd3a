import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { forgetStrap, hasWebBluetooth, pairHeartRateStrap } from './ble-strap';
import { readLog } from './device-db';
import { myDevicesQuery } from './devices-api';
import {
  addVirtualWatch,
  LATEST_FIRMWARE,
  removeVirtualWatch,
  sendVirtualEvent,
  syncNow,
  upgradeVirtualFirmware,
  type LocalWatch,
} from './devices-runtime';
import { useDateTime, useDevices } from './use-devices';
import { useViewOnlyProfile } from '../profiles/view-only';
import './devices.css';

function SyncCard() {
  const { t } = useTranslation('appDevices');
  const devices = useDevices();
  const dateTime = useDateTime();
  return (
    <section className="card" aria-labelledby="sync-heading">
      <div className="card-title">
        <h2 id="sync-heading">{t('sync.title')}</h2>
        <button type="button" disabled={devices.syncing} onClick={() => void syncNow()}>
          {devices.syncing ? t('sync.syncing') : t('sync.now')}
        </button>
      </div>
      <p data-testid="queued">{t('sync.queued', { count: devices.queued })}</p>
      <p data-testid="last-sync">{devices.lastSync ? t('sync.lastSync', { time: dateTime(devices.lastSync) }) : t('sync.never')}</p>
      {devices.offline ? <Alert tone="info">{t('sync.offline')}</Alert> : null}
    </section>
  );
}

function MyWatches() {
  const { t } = useTranslation('appDevices');
  const dateTime = useDateTime();
  const watches = useQuery(myDevicesQuery());
  const isViewOnly = useViewOnlyProfile() !== null;
  return (
    <section className="card" aria-labelledby="mine-heading">
      <h2 id="mine-heading">{t('mine.title')}</h2>
      {watches.isPending ? <p role="status">{t('loading')}</p> : null}
      {watches.isError ? <Alert>{errorMessage(watches.error)}</Alert> : null}
      {watches.data?.length === 0 ? <p className="hint">{t('mine.empty')}</p> : null}
      {watches.data && watches.data.length > 0 ? (
        <ul className="device-list">
          {watches.data.map((watch) => (
            <li key={watch.id}>
              <Link className="device-link" to={`/devices/${watch.id}`}>
                <span className="device-name">{watch.model}</span>
                <span className="device-state">{t(`connection.${String(watch.connectionStatus)}` as 'connection.1')}</span>
                <span className="hint">{t('mine.serial', { serial: watch.serialNumber })}</span>
                <span className="hint">
                  {watch.lastSyncedAt ? t('mine.lastSync', { time: dateTime(watch.lastSyncedAt) }) : t('mine.neverSynced')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {isViewOnly ? null : (
        <Link className="button" to="/devices/bind">
          {t('mine.bind')}
        </Link>
      )}
    </section>
  );
}

/** A watch running in the page (virtual, or a Bluetooth strap): state, heart rate, firmware. */
export function LocalWatchStatus({ watch }: { watch: LocalWatch }) {
  const { t } = useTranslation('appDevices');
  return (
    <>
      <p className={`watch-state state-${watch.state}`} data-testid="watch-state">
        {t(`state.${watch.state}`)}
      </p>
      <p>{watch.lastHeartRate === null ? t('virtual.noReading') : t('virtual.heartRate', { value: watch.lastHeartRate })}</p>
      {watch.firmware === '' ? null : <p className="hint">{t('firmware.version', { version: watch.firmware })}</p>}
      {watch.upgradeProgress === null ? null : (
        <div className="progress-row">
          <label htmlFor="firmware-progress">{t('firmware.progress')}</label>
          <progress id="firmware-progress" max={100} value={watch.upgradeProgress}>
            {watch.upgradeProgress} %
          </progress>
        </div>
      )}
    </>
  );
}

function VirtualWatchCard() {
  const { t } = useTranslation('appDevices');
  const { virtual } = useDevices();
  return (
    <section className="card" aria-labelledby="virtual-heading">
      <h2 id="virtual-heading">{t('virtual.title')}</h2>
      <p className="hint">{t('virtual.hint')}</p>
      {virtual === null ? (
        <button type="button" className="primary" onClick={() => void addVirtualWatch()}>
          {t('virtual.add')}
        </button>
      ) : (
        <>
          <LocalWatchStatus watch={virtual} />
          <div className="actions">
            {virtual.state === 'connected' ? (
              <>
                {virtual.firmware === LATEST_FIRMWARE ? (
                  <p className="hint">{t('firmware.upToDate')}</p>
                ) : (
                  <button type="button" onClick={() => void upgradeVirtualFirmware()}>
                    {t('firmware.upgrade', { version: LATEST_FIRMWARE })}
                  </button>
                )}
                <button type="button" onClick={() => { sendVirtualEvent('connectionLost'); }}>
                  {t('virtual.disconnect')}
                </button>
              </>
            ) : null}
            {virtual.state === 'disconnected' ? (
              <button
                type="button"
                onClick={() => {
                  sendVirtualEvent('reconnect');
                  sendVirtualEvent('connected');
                }}
              >
                {t('virtual.reconnect')}
              </button>
            ) : null}
            {virtual.state === 'upgrading' ? null : (
              <button type="button" onClick={() => void removeVirtualWatch()}>
                {t('virtual.remove')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function BluetoothCard() {
  const { t } = useTranslation('appDevices');
  const { strap } = useDevices();
  const isViewOnly = useViewOnlyProfile() !== null;
  const [problem, setProblem] = useState<string | null>(null);
  const pair = () => {
    setProblem(null);
    pairHeartRateStrap().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : '';
      // The person closing the browser's chooser is not a failure.
      if (error instanceof DOMException && error.name === 'NotFoundError') return;
      setProblem(reason === 'bluetoothOff' ? t('bluetooth.off') : reason === 'notSupported' ? t('bluetooth.unsupported') : t('bluetooth.failed'));
    });
  };
  return (
    <section className="card" aria-labelledby="bluetooth-heading">
      <h2 id="bluetooth-heading">{t('bluetooth.title')}</h2>
      <p className="hint">{t('bluetooth.hint')}</p>
      {problem ? <Alert>{problem}</Alert> : null}
      {!hasWebBluetooth() ? (
        <Alert tone="info">{t('bluetooth.unsupported')}</Alert>
      ) : strap === null ? (
        isViewOnly ? null : (
          <button type="button" onClick={pair}>
            {t('bluetooth.pair')}
          </button>
        )
      ) : (
        <>
          <p className="device-name">{strap.name}</p>
          <LocalWatchStatus watch={strap} />
          <button type="button" onClick={forgetStrap}>
            {t('bluetooth.forget')}
          </button>
        </>
      )}
    </section>
  );
}

function HelpCard() {
  const { t } = useTranslation('appDevices');
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'info' } | null>(null);
  const exportLog = async () => {
    const entries = await readLog();
    if (entries.length === 0) {
      setMessage({ text: t('help.noLog'), tone: 'error' });
      return;
    }
    const text = entries.map((entry) => `${entry.at} ${entry.message}`).join('\n');
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `device-log-${new Date().toISOString().slice(0, 10)}.txt`;
    link.click();
    URL.revokeObjectURL(url);
    setMessage({ text: t('help.exported'), tone: 'info' });
  };
  return (
    <nav className="card help-links" aria-labelledby="help-heading">
      <h2 id="help-heading">{t('help.title')}</h2>
      <Link to="/devices/help/manual">{t('help.manual')}</Link>
      <Link to="/devices/help/troubleshooting">{t('help.troubleshooting')}</Link>
      <Link to="/devices/help/permissions">{t('help.permissions')}</Link>
      <button type="button" onClick={() => void exportLog()}>
        {t('help.exportLog')}
      </button>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </nav>
  );
}

/** Devices: the sync queue, the patient's bound watches, the virtual watch, Bluetooth, help. */
export function DevicesPage() {
  const { t } = useTranslation('appDevices');
  return (
    <div className="devices">
      <h1>{t('title')}</h1>
      <SyncCard />
      <MyWatches />
      <VirtualWatchCard />
      <BluetoothCard />
      <HelpCard />
    </div>
  );
}
