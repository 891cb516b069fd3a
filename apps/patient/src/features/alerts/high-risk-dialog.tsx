import { useMutation } from '@tanstack/react-query';
import type { WaitingAlert } from '@rpm/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { answerCallFollowers, answerFine } from './alerts-api';
import { FullScreenDialog } from './modal';
import { useCountdown } from './use-countdown';

/**
 * The high-risk confirmation (spec §4): a full-screen question with the tenant's countdown, "I am
 * fine" or "call followers". The app only answers: when the countdown ends without an answer, the
 * server's escalation has already gone ahead (its own timer), and the dialog says so.
 */
export function HighRiskDialog(props: {
  alert: NonNullable<WaitingAlert['alert']>;
  /** The deadline on this phone's clock (the server's deadline corrected by the clock offset). */
  deadline: number;
  onDone: () => void;
}) {
  const { t } = useTranslation('appAlerts');
  const left = useCountdown(props.deadline) ?? 0;
  const fine = useMutation({ mutationFn: answerFine });
  const call = useMutation({ mutationFn: answerCallFollowers });
  const firstButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    firstButton.current?.focus();
  }, []);
  const answered = fine.isSuccess ? 'fine' : call.isSuccess ? 'call' : null;
  const isExpired = answered === null && left === 0;
  const failure = fine.error ?? call.error;
  const type = t(`type.${props.alert.type}`);

  return (
    <FullScreenDialog labelId="high-risk-title" describedId="high-risk-body" tone="warning" testId="high-risk-dialog">
      <h2 id="high-risk-title">{t('highRisk.title')}</h2>
      <p id="high-risk-body">{t('highRisk.body', { type })}</p>
      {answered === null && !isExpired ? (
        <>
          <p className="countdown" aria-live="polite" data-testid="high-risk-countdown">
            <span className="countdown-number" aria-hidden="true">{left}</span>
            <span>{t('highRisk.countdown', { count: left })}</span>
          </p>
          {failure ? <p className="dialog-error" role="alert">{t('highRisk.failed')} {errorMessage(failure)}</p> : null}
          <div className="dialog-actions">
            <button
              ref={firstButton}
              type="button"
              className="answer-fine"
              disabled={fine.isPending || call.isPending}
              onClick={() => {
                fine.mutate();
              }}
            >
              {t('highRisk.fine')}
            </button>
            <button
              type="button"
              className="answer-call"
              disabled={fine.isPending || call.isPending}
              onClick={() => {
                call.mutate();
              }}
            >
              {t('highRisk.callFollowers')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p role="status" className="dialog-outcome" data-testid="high-risk-outcome">
            {answered === 'fine' ? t('highRisk.answeredFine') : answered === 'call' ? t('highRisk.answeredCall') : t('highRisk.expired')}
          </p>
          <div className="dialog-actions">
            <button type="button" className="dialog-close" autoFocus onClick={props.onDone}>
              {t('highRisk.close')}
            </button>
          </div>
        </>
      )}
    </FullScreenDialog>
  );
}
