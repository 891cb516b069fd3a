import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { hasWebBluetooth } from './ble-strap';
import './devices.css';

type PermissionKey = 'bluetooth' | 'camera' | 'notifications' | 'location';
const keys: PermissionKey[] = ['bluetooth', 'camera', 'notifications', 'location'];
type PermissionShown = 'granted' | 'denied' | 'prompt' | 'unsupported' | 'available';

async function permissionOf(key: PermissionKey): Promise<PermissionShown> {
  if (key === 'bluetooth') return hasWebBluetooth() ? 'available' : 'unsupported';
  if (key === 'notifications' && !('Notification' in window)) return 'unsupported';
  const name = key === 'location' ? 'geolocation' : key;
  try {
    const status = await navigator.permissions.query({ name });
    return status.state;
  } catch {
    return 'unsupported';
  }
}

function PermissionsList() {
  const { t } = useTranslation('appDevices');
  const [states, setStates] = useState<Partial<Record<PermissionKey, PermissionShown>>>({});
  useEffect(() => {
    void Promise.all(keys.map(async (key) => [key, await permissionOf(key)] as const)).then((entries) => {
      setStates(Object.fromEntries(entries));
    });
  }, []);
  return (
    <>
      <p className="hint">{t('permissions.hint')}</p>
      <dl className="details">
        {keys.map((key) => (
          <div key={key} className="details-row">
            <dt>{t(`permissions.${key}`)}</dt>
            <dd>{states[key] ? t(`permissions.${states[key]}`) : t('loading')}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

const TOPICS = ['manual', 'troubleshooting', 'permissions'] as const;
type Topic = (typeof TOPICS)[number];

/** The watch's manual, troubleshooting and the app's permission settings. */
export function HelpPage() {
  const { t } = useTranslation('appDevices');
  const { topic } = useParams();
  const shown: Topic = (TOPICS as readonly string[]).includes(topic ?? '') ? (topic as Topic) : 'manual';
  return (
    <div className="devices">
      <Link to="/devices" className="back-link">
        {t('help.back')}
      </Link>
      <h1>{t(`${shown}.title`)}</h1>
      <section className="card">
        {shown === 'permissions' ? (
          <PermissionsList />
        ) : (
          <ol className="help-list">
            {(t(`${shown}.items`, { returnObjects: true }) as string[]).map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
