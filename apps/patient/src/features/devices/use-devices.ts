import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getSnapshot, startDevices, subscribe, type DevicesSnapshot } from './devices-runtime';

/** The watches and the sync queue as they are now; starts the sync loop on first use. */
export function useDevices(): DevicesSnapshot {
  useEffect(() => {
    void startDevices();
  }, []);
  return useSyncExternalStore(subscribe, getSnapshot);
}

/** A date and time in the app's language (short). */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => format.format(new Date(iso));
}
