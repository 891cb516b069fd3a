import { CODE_ATTEMPTS_PER_DAY, type PatientSubscriptionsView } from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import { redeemCode } from './redeem-api';
import { redeemedPackage, redeemInputOf, typedUpper, type RedeemProblems, type RedeemValues } from './redeem-form';
import { mySubscriptionQuery } from './subscription-api';

/** What My package is told after a code was accepted (router state), to say so. */
export interface RedeemedState {
  redeemed: { name: string; endsAt: string | null };
}

/**
 * /subscription/redeem — the scratch-card entry (spec §2 patient app; §8 "Scratch card code or
 * security code incorrect"): the series printed on the card and the scratched code, typed with or
 * without spaces and dashes, in capitals as typed. A code of the wrong length is caught here (it
 * would count as a wrong code); the server's refusals are shown in its words (wrong code, not
 * usable now, used, too many attempts). A right code starts the card's package for the active
 * profile: back to My package, which says so and shows the package.
 */
export function RedeemPage() {
  const { t } = useTranslation('appProfiles');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewOnly = useViewOnlyProfile();
  const [values, setValues] = useState<RedeemValues>({ series: '', code: '' });
  const [problems, setProblems] = useState<RedeemProblems>({});
  const redeem = useMutation({
    mutationFn: redeemCode,
    onSuccess: (view: PatientSubscriptionsView, input) => {
      queryClient.setQueryData(mySubscriptionQuery().queryKey, view);
      const redeemed = redeemedPackage(view, input.series);
      const state: RedeemedState = { redeemed: redeemed ?? { name: '', endsAt: null } };
      void navigate('/subscription', { replace: true, state });
    },
  });
  const problemText = (field: keyof RedeemValues) => {
    const problem = problems[field];
    return problem === undefined ? undefined : t(`redeem.problems.${problem}`);
  };
  const change = (field: keyof RedeemValues, text: string) => {
    setValues((current) => ({ ...current, [field]: typedUpper(text) }));
    if (problems[field] !== undefined) setProblems((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <div className="subscription-page redeem-page">
      <p>
        <Link to="/subscription">{t('redeem.back')}</Link>
      </p>
      <h1>{t('redeem.title')}</h1>
      <p className="hint">{t('redeem.intro')}</p>
      {viewOnly !== null ? (
        <ViewOnlyNotice profile={viewOnly} />
      ) : (
        <form
          className="card redeem-form"
          noValidate
          data-testid="redeem-form"
          onSubmit={(event) => {
            event.preventDefault();
            const result = redeemInputOf(values);
            if (result.problems) {
              setProblems(result.problems);
              return;
            }
            setProblems({});
            redeem.mutate(result.input);
          }}
        >
          <TextField
            label={t('redeem.series')}
            hint={t('redeem.seriesHint')}
            error={problemText('series')}
            value={values.series}
            onChange={(event) => {
              change('series', event.currentTarget.value);
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            className="redeem-input"
          />
          <TextField
            label={t('redeem.code')}
            hint={t('redeem.codeHint')}
            error={problemText('code')}
            value={values.code}
            onChange={(event) => {
              change('code', event.currentTarget.value);
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            className="redeem-input"
          />
          {redeem.isError ? (
            <div data-testid="redeem-error">
              <Alert>{errorMessage(redeem.error)}</Alert>
            </div>
          ) : null}
          <button type="submit" className="primary" disabled={redeem.isPending}>
            {redeem.isPending ? t('redeem.sending') : t('redeem.submit')}
          </button>
          <p className="hint redeem-attempts">{t('redeem.attemptsHint', { count: CODE_ATTEMPTS_PER_DAY })}</p>
        </form>
      )}
    </div>
  );
}
