import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { PUSH_DEVICE_KEY, PushProblem, readPushState, turnPushOff, turnPushOn, type PushState } from './push-device';

/** The message of a failed change: a push problem's own, else the failed call's. */
function useProblemText(): (error: unknown, wasTurningOn: boolean) => string | null {
  const { t } = useTranslation('appAlerts');
  return (error, wasTurningOn) => {
    // Blocked in the dialog: the card's state says it, with what to do.
    if (error instanceof PushProblem) return error.reason === 'blocked' ? null : t(`push.problems.${error.reason}`);
    return `${t(wasTurningOn ? 'push.problems.notSaved' : 'push.problems.notTurnedOff')} ${errorMessage(error)}`;
  };
}

/**
 * Web Push on this device (opt-in per phone): what the browser allows, and one button that turns
 * it on (permission, subscription, saved by the server) or off. The button stays in place as the
 * state changes, so the keyboard's focus stays on it; the state is announced.
 */
export function PushDeviceCard() {
  const { t } = useTranslation('appAlerts');
  const id = useId();
  const queryClient = useQueryClient();
  const problemText = useProblemText();
  const state = useQuery({ queryKey: PUSH_DEVICE_KEY, queryFn: readPushState });
  const change = useMutation({
    mutationFn: (turnOn: boolean) => (turnOn ? turnPushOn() : turnPushOff()),
    onSettled: () => queryClient.invalidateQueries({ queryKey: PUSH_DEVICE_KEY }),
  });
  // Reading the device's subscription cannot fail for a reason worth a message: it then is off.
  const shown: PushState | 'checking' = state.isPending ? 'checking' : (state.data ?? 'off');
  const canChange = shown === 'off' || shown === 'on';
  const problem = change.isError ? problemText(change.error, change.variables) : null;
  const busyText = change.variables === true ? t('push.turningOn') : t('push.turningOff');

  return (
    <section className="card push-device" aria-labelledby={`${id}-title`} data-testid="push-device" data-state={shown}>
      <h2 id={`${id}-title`}>{t('push.title')}</h2>
      <p className="push-state" role="status">
        <span className={`push-state-badge state-${shown}`}>{t(`push.state.${shown}`)}</span>
      </p>
      <p id={`${id}-explain`} className="hint">{t(`push.explain.${shown}`)}</p>
      {canChange ? (
        <button
          type="button"
          className={shown === 'off' ? 'primary' : 'push-off'}
          aria-describedby={`${id}-explain`}
          aria-disabled={change.isPending ? true : undefined}
          onClick={() => {
            if (!change.isPending) change.mutate(shown === 'off');
          }}
        >
          {change.isPending ? busyText : t(shown === 'off' ? 'push.turnOn' : 'push.turnOff')}
        </button>
      ) : null}
      <div aria-live="assertive">{problem === null ? null : <p className="field-error push-problem">{problem}</p>}</div>
    </section>
  );
}
