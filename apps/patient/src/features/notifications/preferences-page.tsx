import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPES,
  type NotificationChannel,
  type NotificationPreference,
  type NotificationPreferencesUpdate,
  type NotificationType,
} from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, Switch } from '../../ui/kit';
import { PREFERENCES_KEY, preferencesQuery, savePreferences } from './inbox-api';
import { PushDeviceCard } from './push-card';
import { useNotificationCatalogue } from './use-notification-catalogue';

const SAVE_KEY = ['notification-preferences', 'save'] as const;

/** Working hours are staff's business: a patient never gets a SCHEDULE notification. */
const PATIENT_TYPES = NOTIFICATION_TYPES.filter((type) => type !== 'SCHEDULE');


function TypeChoices(props: {
  type: NotificationType;
  rows: Map<NotificationChannel, NotificationPreference>;
  onChange: (channel: NotificationChannel, enabled: boolean) => void;
}) {
  const { t } = useTranslation('notifications');
  const id = useId();
  const isLocked = [...props.rows.values()].every((row) => !row.changeable);
  return (
    <fieldset className="card preference-type" data-type={props.type}>
      <legend>{t(`types.${props.type}`)}</legend>
      {isLocked ? (
        <p id={`${id}-locked`} className="always-on">
          {t('preferences.alwaysOn')}
        </p>
      ) : null}
      {NOTIFICATION_CHANNELS.map((channel) => {
        const row = props.rows.get(channel);
        if (row === undefined) return null;
        return (
          <Switch
            key={channel}
            label={t(`channels.${channel}`)}
            checked={row.enabled}
            disabled={!row.changeable}
            describedBy={row.changeable ? undefined : `${id}-locked`}
            onChange={(enabled) => {
              props.onChange(channel, enabled);
            }}
          />
        );
      })}
    </fieldset>
  );
}

/**
 * How each type of notification reaches the account: in the app, by e-mail, push or SMS (spec §3,
 * §7 preferences). A switch saves at once; alerts cannot be turned off ("Always on"). Above them,
 * whether this device gets pushes at all.
 */
export function NotificationPreferencesPage() {
  const { t } = useTranslation('notifications');
  const { t: tApp } = useTranslation('appAlerts');
  const isReady = useNotificationCatalogue();
  const queryClient = useQueryClient();
  const preferences = useQuery(preferencesQuery());
  const save = useMutation({
    mutationKey: SAVE_KEY,
    mutationFn: savePreferences,
    // The switch moves at once; a refusal puts the server's state back.
    onMutate: async (update) => {
      await queryClient.cancelQueries({ queryKey: PREFERENCES_KEY });
      queryClient.setQueryData(PREFERENCES_KEY, (current: { items: NotificationPreference[] } | undefined) =>
        current === undefined
          ? current
          : {
              items: current.items.map((row) => {
                const change = update.items.find((item) => item.type === row.type && item.channel === row.channel);
                return change === undefined ? row : { ...row, enabled: change.enabled };
              }),
            },
      );
    },
    onSettled: async () => {
      // Several switches may be saving: the last one to finish fetches the server's state.
      if (queryClient.isMutating({ mutationKey: SAVE_KEY }) === 1) await queryClient.invalidateQueries({ queryKey: PREFERENCES_KEY });
    },
  });

  if (!isReady) return <p role="status" className="loading">{tApp('centre.loading')}</p>;

  const byType = new Map<NotificationType, Map<NotificationChannel, NotificationPreference>>();
  for (const row of preferences.data?.items ?? []) {
    const rows = byType.get(row.type) ?? new Map<NotificationChannel, NotificationPreference>();
    rows.set(row.channel, row);
    byType.set(row.type, rows);
  }
  const change = (type: NotificationType, channel: NotificationChannel, enabled: boolean) => {
    const update: NotificationPreferencesUpdate = { items: [{ type, channel, enabled }] };
    save.mutate(update);
  };

  return (
    <div className="notification-preferences">
      <p className="back">
        <Link to="/notifications">{tApp('centre.back')}</Link>
      </p>
      <h1>{t('preferences.title')}</h1>
      <p className="hint">{t('preferences.description')}</p>
      <PushDeviceCard />
      {preferences.isPending ? <p role="status" className="loading">{tApp('centre.loading')}</p> : null}
      {preferences.isError ? (
        <Alert>
          {tApp('centre.preferencesFailed')} {errorMessage(preferences.error)}{' '}
          <button type="button" onClick={() => void preferences.refetch()}>{t('retry')}</button>
        </Alert>
      ) : null}
      <div aria-live="polite" className="preferences-status">
        {save.isError ? <p className="field-error">{tApp('centre.saveFailed')} {errorMessage(save.error)}</p> : null}
        {save.isSuccess ? <p className="hint saved" data-testid="preferences-saved">{t('preferences.saved')}</p> : null}
      </div>
      {PATIENT_TYPES.map((type) => {
        const rows = byType.get(type);
        if (rows === undefined) return null;
        return (
          <TypeChoices
            key={type}
            type={type}
            rows={rows}
            onChange={(channel, enabled) => {
              change(type, channel, enabled);
            }}
          />
        );
      })}
    </div>
  );
}
