import type { MyDevice, WatchSettings } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox } from '../../ui/kit';
import { DEVICES_KEY, myDevicesQuery, saveFirmware, saveSettings, unbindDevice } from './devices-api';
import { LATEST_FIRMWARE, log, simulateTransfer } from './devices-runtime';
import { useDateTime } from './use-devices';
import './devices.css';

function SettingsForm({ watch }: { watch: MyDevice }) {
  const { t } = useTranslation('appDevices');
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState<WatchSettings>(watch.settings);
  const save = useMutation({
    mutationFn: () => saveSettings(watch.id, settings),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DEVICES_KEY }),
  });
  return (
    <section className="card" aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('watch.settings')}</h2>
      <Checkbox label={t('watch.nightSpo2')} checked={settings.nightSpo2Detection} onChange={(value) => { setSettings({ ...settings, nightSpo2Detection: value }); }} />
      <Checkbox label={t('watch.fallDetection')} checked={settings.fallDetection} onChange={(value) => { setSettings({ ...settings, fallDetection: value }); }} />
      {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
      {save.isSuccess ? <Alert tone="info">{t('watch.saved')}</Alert> : null}
      <button type="button" className="primary" disabled={save.isPending} onClick={() => { save.mutate(); }}>
        {t('watch.save')}
      </button>
    </section>
  );
}

function FirmwareCard({ watch }: { watch: MyDevice }) {
  const { t } = useTranslation('appDevices');
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const upgrade = useMutation({
    mutationFn: async () => {
      log(`watch ${watch.serialNumber}: firmware upgrade to ${LATEST_FIRMWARE} started`);
      await simulateTransfer(setProgress);
      return saveFirmware(watch.id, LATEST_FIRMWARE);
    },
    onSuccess: () => {
      log(`watch ${watch.serialNumber}: firmware ${LATEST_FIRMWARE} installed`);
      return queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
    },
    onError: () => {
      log(`watch ${watch.serialNumber}: firmware upgrade failed`);
    },
    onSettled: () => {
      setProgress(null);
    },
  });
  const current = watch.firmwareVersion || '—';
  return (
    <section className="card" aria-labelledby="firmware-heading">
      <h2 id="firmware-heading">{t('firmware.version', { version: current })}</h2>
      {upgrade.isError ? <Alert>{t('firmware.failed')}</Alert> : null}
      {upgrade.isSuccess ? <Alert tone="info">{t('firmware.done', { version: LATEST_FIRMWARE })}</Alert> : null}
      {progress === null ? null : (
        <div className="progress-row">
          <label htmlFor="watch-firmware-progress">{t('firmware.progress')}</label>
          <progress id="watch-firmware-progress" max={100} value={progress}>
            {progress} %
          </progress>
        </div>
      )}
      {watch.firmwareVersion === LATEST_FIRMWARE ? (
        <p className="hint">{t('firmware.upToDate')}</p>
      ) : (
        <button type="button" disabled={upgrade.isPending} onClick={() => { upgrade.mutate(); }}>
          {t('firmware.upgrade', { version: LATEST_FIRMWARE })}
        </button>
      )}
    </section>
  );
}

function UnbindCard({ watch }: { watch: MyDevice }) {
  const { t } = useTranslation('appDevices');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const unbind = useMutation({
    mutationFn: () => unbindDevice(watch.id),
    onSuccess: async () => {
      log(`watch ${watch.model} ${watch.serialNumber} unbound`);
      await queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
      void navigate('/devices');
    },
  });
  return (
    <section className="card">
      {unbind.isError ? <Alert>{errorMessage(unbind.error)}</Alert> : null}
      {confirming ? (
        <div role="alertdialog" aria-labelledby="unbind-question">
          <p id="unbind-question">{t('watch.unbindConfirm', { model: watch.model, serial: watch.serialNumber })}</p>
          <div className="actions">
            <button type="button" className="danger" disabled={unbind.isPending} onClick={() => { unbind.mutate(); }}>
              {t('watch.unbindYes')}
            </button>
            <button type="button" onClick={() => { setConfirming(false); }}>
              {t('watch.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="danger" onClick={() => { setConfirming(true); }}>
          {t('watch.unbind')}
        </button>
      )}
    </section>
  );
}

/** One bound watch: details, settings, firmware upgrade, unbind. */
export function WatchPage() {
  const { t } = useTranslation('appDevices');
  const { deviceId } = useParams();
  const dateTime = useDateTime();
  const watches = useQuery(myDevicesQuery());
  const watch = watches.data?.find((candidate) => candidate.id === deviceId);
  return (
    <div className="devices">
      <Link to="/devices" className="back-link">
        {t('watch.back')}
      </Link>
      {watches.isPending ? <p role="status">{t('loading')}</p> : null}
      {watches.isError ? <Alert>{errorMessage(watches.error)}</Alert> : null}
      {watches.data && !watch ? <Alert>{t('watch.notFound')}</Alert> : null}
      {watch ? (
        <>
          <h1>
            {watch.model} · {watch.serialNumber}
          </h1>
          <section className="card" aria-labelledby="details-heading">
            <h2 id="details-heading">{t('watch.details')}</h2>
            <dl className="details">
              <dt>{t('watch.status')}</dt>
              <dd>{t(`connection.${String(watch.connectionStatus)}` as 'connection.1')}</dd>
              <dt>{t('watch.mac')}</dt>
              <dd>{watch.macAddress ?? '—'}</dd>
              <dt>{t('watch.boundAt')}</dt>
              <dd>{watch.boundAt ? dateTime(watch.boundAt) : '—'}</dd>
              <dt>{t('sync.title')}</dt>
              <dd>{watch.lastSyncedAt ? dateTime(watch.lastSyncedAt) : t('mine.neverSynced')}</dd>
            </dl>
          </section>
          <SettingsForm watch={watch} />
          <FirmwareCard watch={watch} />
          <UnbindCard watch={watch} />
        </>
      ) : null}
    </div>
  );
}
