import {
  formatMoney,
  UNLIMITED,
  type PackageFeature,
  type ServicePackage,
  type Subscription,
  type SubscriptionStatus,
} from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { ConfirmDialog } from '../contacts/parts';
import { OrdersSection } from './orders-section';
import { ScratchCardEntry } from './scratch-card-entry';
import { cancelMySubscription, mySubscriptionQuery, packageOfferQuery, SUBSCRIPTION_KEY } from './subscription-api';

function useDate(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  return (iso) => format.format(new Date(iso));
}

function StatusBadge({ status }: { status: SubscriptionStatus }) {
  const { t } = useTranslation('appProfiles');
  return (
    <span className={`subscription-status subscription-status-${status.toLowerCase()}`} data-testid="subscription-status">
      {t(`subscription.statuses.${status}`)}
    </span>
  );
}

function Features({ features }: { features: readonly PackageFeature[] }) {
  const { t } = useTranslation('appProfiles');
  if (features.length === 0) return <p className="hint">{t('subscription.noFeatures')}</p>;
  return (
    <ul className="subscription-features">
      {features.map((feature) => (
        <li key={feature}>{t(`subscription.featureNames.${feature}`)}</li>
      ))}
    </ul>
  );
}

function OfferItem({ item, canBuy }: { item: ServicePackage; canBuy: boolean }) {
  const { t, i18n } = useTranslation('appProfiles');
  return (
    <li className="card" data-testid="package-offer">
      <p className="subscription-head">
        <strong>{item.name}</strong>
        <span className="subscription-price">{formatMoney(item.priceMinor, item.currency, i18n.language)}</span>
      </p>
      <p className="hint">
        {item.durationMonths === UNLIMITED ? t('subscription.noEnd') : t('subscription.months', { count: item.durationMonths })}
      </p>
      {item.description === '' ? null : <p>{item.description}</p>}
      <Features features={item.userFeatures} />
      {canBuy && item.kind === 'PACKAGE' && item.priceMinor > 0 ? (
        <Link className="button primary" to={`/subscription/checkout?package=${encodeURIComponent(item.id)}`} aria-label={t('checkout.buyNamed', { name: item.name })}>
          {t('checkout.buy')}
        </Link>
      ) : null}
    </li>
  );
}

function HistoryItem({ item }: { item: Subscription }) {
  const { t, i18n } = useTranslation('appProfiles');
  const date = useDate();
  const end = item.endedAt ?? item.endsAt;
  return (
    <li className="card" data-testid="subscription-history-item">
      <p className="subscription-head">
        <strong>{item.package.name}</strong>
        <StatusBadge status={item.status} />
      </p>
      <p className="hint">
        {formatMoney(item.package.priceMinor, item.package.currency, i18n.language)} ·{' '}
        {t('subscription.period', { from: date(item.startsAt), to: end === null ? t('subscription.noEnd') : date(end) })}
      </p>
    </li>
  );
}

/**
 * /subscription — the profile's package now (end date, status, features, limits), the health
 * center's offer with prices (a paid package can be bought: checkout-page), the profile's payments,
 * and past packages; the patient may cancel a paid package and go back to the free default.
 */
export function SubscriptionPage() {
  const { t, i18n } = useTranslation('appProfiles');
  const queryClient = useQueryClient();
  const date = useDate();
  const mine = useQuery(mySubscriptionQuery());
  const offer = useQuery(packageOfferQuery());
  const [isConfirming, setConfirming] = useState(false);
  const [justCanceled, setJustCanceled] = useState(false);
  const cancel = useMutation({
    mutationFn: cancelMySubscription,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY });
      setConfirming(false);
      setJustCanceled(true);
    },
  });
  const limitText = (limit: number) => (limit === UNLIMITED ? t('subscription.unlimited') : String(limit));
  const entitlements = mine.data?.entitlements;
  const subscription = entitlements?.subscription ?? null;
  const current = entitlements?.package ?? null;
  return (
    <div className="subscription-page">
      <p>
        <Link to="/">{t('subscription.back')}</Link>
      </p>
      <h1>{t('subscription.title')}</h1>
      <p className="hint">{t('subscription.intro')}</p>
      <ScratchCardEntry />
      {mine.isError ? <Alert>{errorMessage(mine.error)}</Alert> : null}
      {mine.isPending ? <p className="hint">{t('loading')}</p> : null}
      {justCanceled ? (
        <p role="status" data-testid="subscription-canceled">
          {t('subscription.canceled')}
        </p>
      ) : null}
      {entitlements ? (
        <section aria-label={t('subscription.current')}>
          <h2>{t('subscription.current')}</h2>
          {entitlements.packagesEnabled ? null : <Alert tone="info">{t('subscription.notSold')}</Alert>}
          <div className="card" data-testid="my-package">
            <p className="subscription-head">
              <strong data-testid="my-package-name">{current === null ? t('subscription.noPackage') : current.name}</strong>
              {subscription === null ? null : <StatusBadge status={subscription.status} />}
            </p>
            {current === null ? null : (
              <p className="hint">
                {t('subscription.price', { price: formatMoney(current.priceMinor, current.currency, i18n.language) })} ·{' '}
                {subscription?.endsAt == null ? t('subscription.noEnd') : t('subscription.endsOn', { date: date(subscription.endsAt) })}
              </p>
            )}
            <h3>{t('subscription.features')}</h3>
            <Features features={entitlements.features} />
            <h3>{t('subscription.relativeFeatures')}</h3>
            <Features features={entitlements.relativeFeatures} />
            <p className="hint">
              {t('subscription.followerLimit', { limit: limitText(entitlements.followerLimit) })} ·{' '}
              {t('subscription.subUserLimit', { limit: limitText(entitlements.subUserLimit) })} ·{' '}
              {t('subscription.wearable', { answer: entitlements.hasWearable ? t('subscription.yes') : t('subscription.no') })}
            </p>
            {subscription === null || current === null || current.priceMinor === 0 ? null : (
              <button
                type="button"
                className="danger"
                onClick={() => {
                  cancel.reset();
                  setConfirming(true);
                }}
              >
                {t('subscription.cancel')}
              </button>
            )}
          </div>
        </section>
      ) : null}
      <section aria-label={t('subscription.offer')}>
        <h2>{t('subscription.offer')}</h2>
        <p className="hint">{t('subscription.offerNote')}</p>
        {offer.isError ? <Alert>{errorMessage(offer.error)}</Alert> : null}
        {offer.data?.length === 0 ? <p className="hint">{t('subscription.noOffer')}</p> : null}
        {offer.data && offer.data.length > 0 ? (
          <ul className="subscription-list">
            {offer.data.map((item) => (
              <OfferItem key={item.id} item={item} canBuy={entitlements?.packagesEnabled === true} />
            ))}
          </ul>
        ) : null}
      </section>
      {entitlements?.packagesEnabled === true ? <OrdersSection /> : null}
      {mine.data ? (
        <section aria-label={t('subscription.history')}>
          <h2>{t('subscription.history')}</h2>
          {mine.data.history.length === 0 ? (
            <p className="hint">{t('subscription.noHistory')}</p>
          ) : (
            <ul className="subscription-list">
              {mine.data.history.map((item) => (
                <HistoryItem key={item.id} item={item} />
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {isConfirming ? (
        <ConfirmDialog
          title={t('subscription.cancelTitle')}
          body={t('subscription.cancelText')}
          confirm={t('subscription.cancel')}
          busy={cancel.isPending}
          error={cancel.isError ? errorMessage(cancel.error) : undefined}
          onConfirm={() => {
            cancel.mutate();
          }}
          onCancel={() => {
            setConfirming(false);
          }}
        />
      ) : null}
    </div>
  );
}
