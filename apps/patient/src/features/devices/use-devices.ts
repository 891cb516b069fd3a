import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getSnapshot, subscribe, type DevicesSnapshot } from './devices-runtime';

/** The watches and the sync queue as they are now (the shell runs the loop for the signed-in account). */
export function useDevices(): DevicesSnapshot {
  return useSyncExternalStore(subscribe, getSnapshot);
}

/** A date and time in the app's language (short). */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => format.format(new Date(iso));
}
