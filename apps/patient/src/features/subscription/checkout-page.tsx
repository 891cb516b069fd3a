import { formatMoney, type Quote, type ServicePackage } from '@rpm/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox, TextField } from '../../ui/kit';
import { placeOrder, quoteCheckout } from './checkout-api';
import { packageOfferQuery } from './subscription-api';

/** The figures of the order: each item, the coupon, the tax and the total, in the package's currency. */
function QuoteTable({ quote }: { quote: Quote }) {
  const { t, i18n } = useTranslation('appProfiles');
  const money = (minor: number) => formatMoney(minor, quote.currency, i18n.language);
  return (
    <table className="checkout-figures" data-testid="checkout-quote">
      <tbody>
        {quote.items.map((item) => (
          <tr key={item.packageId}>
            <th scope="row">{item.name}</th>
            <td>{money(item.unitMinor)}</td>
          </tr>
        ))}
        {quote.discountMinor > 0 ? (
          <tr>
            <th scope="row">{t('checkout.discount', { code: quote.couponCode ?? '' })}</th>
            <td>−{money(quote.discountMinor)}</td>
          </tr>
        ) : null}
        <tr>
          <th scope="row">{t('checkout.tax', { rate: (quote.taxRate / 100).toLocaleString(i18n.language) })}</th>
          <td>{money(quote.taxMinor)}</td>
        </tr>
        <tr className="checkout-total">
          <th scope="row">{t('checkout.total')}</th>
          <td data-testid="checkout-total">{money(quote.totalMinor)}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** What the patient can do about a refusal the checkout gives before paying. */
function RefusalHelp({ error }: { error: unknown }) {
  const { t } = useTranslation('appProfiles');
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'package.wearableRequired') return <Link to="/devices/bind">{t('checkout.bindWatch')}</Link>;
  return null;
}

/**
 * /subscription/checkout?package=ID — buying a package: the chosen package, add-ons to go with it,
 * a coupon, the figures the server computes (items, discount, tax, total), then Pay, which sends the
 * patient to the health center's payment page (or straight to the result when a coupon paid it all).
 */
export function CheckoutPage() {
  const { t } = useTranslation('appProfiles');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const packageId = params.get('package') ?? '';
  const offer = useQuery(packageOfferQuery());
  const [addons, setAddons] = useState<string[]>([]);
  const [couponText, setCouponText] = useState('');
  const [coupon, setCoupon] = useState<string | undefined>(undefined);
  const chosen = offer.data?.find((item) => item.id === packageId && item.priceMinor > 0);
  const available: ServicePackage[] = (offer.data ?? []).filter((item) => item.kind === 'ADDON' && item.priceMinor > 0 && item.currency === chosen?.currency && item.id !== packageId);
  const packageIds = chosen === undefined ? [] : [chosen.id, ...addons];
  const quote = useQuery({
    queryKey: ['checkout-quote', packageIds, coupon],
    queryFn: () => quoteCheckout({ packageIds, couponCode: coupon }),
    enabled: packageIds.length > 0,
    retry: false,
  });
  const pay = useMutation({
    mutationFn: () => placeOrder({ packageIds, couponCode: coupon }),
    onSuccess: (result) => {
      if (result.redirectUrl === null) void navigate(`/payment/result?orderId=${encodeURIComponent(result.order.code)}`);
      else window.location.assign(result.redirectUrl);
    },
  });
  // A coupon the server refuses is taken off again, its message kept beside the field.
  const couponRefused = quote.error instanceof ApiError && quote.error.code === 'coupon.invalid';
  useEffect(() => {
    if (couponRefused) setCoupon(undefined);
  }, [couponRefused]);
  const [couponError, setCouponError] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (couponRefused) setCouponError(errorMessage(quote.error));
  }, [couponRefused, quote.error]);

  const applyCoupon = () => {
    setCouponError(undefined);
    const code = couponText.trim().toUpperCase();
    setCoupon(code === '' ? undefined : code);
  };

  return (
    <div className="subscription-page checkout-page">
      <p>
        <Link to="/subscription">{t('checkout.back')}</Link>
      </p>
      <h1>{t('checkout.title')}</h1>
      {offer.isPending ? <p role="status">{t('loading', { ns: 'patient' })}</p> : null}
      {offer.isError ? <Alert>{errorMessage(offer.error)}</Alert> : null}
      {offer.isSuccess && chosen === undefined ? <Alert>{t('checkout.notOffered')}</Alert> : null}
      {chosen ? (
        <>
          <section className="card" aria-label={t('checkout.package')}>
            <p className="subscription-head">
              <strong data-testid="checkout-package">{chosen.name}</strong>
            </p>
            <p className="hint">{t('subscription.months', { count: chosen.durationMonths })}</p>
          </section>
          {available.length > 0 ? (
            <section aria-label={t('checkout.addons')}>
              <h2>{t('checkout.addons')}</h2>
              {available.map((item) => (
                <Checkbox
                  key={item.id}
                  label={item.name}
                  checked={addons.includes(item.id)}
                  onChange={(checked) => {
                    setAddons((current) => (checked ? [...current, item.id] : current.filter((id) => id !== item.id)));
                  }}
                />
              ))}
            </section>
          ) : null}
          <form
            className="checkout-coupon"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              applyCoupon();
            }}
          >
            <TextField
              label={t('checkout.coupon')}
              value={couponText}
              maxLength={32}
              autoCapitalize="characters"
              error={couponError}
              onChange={(event) => {
                setCouponText(event.target.value);
              }}
            />
            <button type="submit">{t('checkout.applyCoupon')}</button>
          </form>
          {quote.isPending && quote.fetchStatus !== 'idle' ? <p role="status">{t('checkout.pricing')}</p> : null}
          {quote.isError && !couponRefused ? (
            <Alert>
              {errorMessage(quote.error)} <RefusalHelp error={quote.error} />
            </Alert>
          ) : null}
          {quote.data ? <QuoteTable quote={quote.data} /> : null}
          {pay.isError ? (
            <Alert>
              {errorMessage(pay.error)} <RefusalHelp error={pay.error} />
            </Alert>
          ) : null}
          <button
            type="button"
            className="primary"
            disabled={quote.data === undefined || pay.isPending || pay.isSuccess}
            onClick={() => {
              pay.mutate();
            }}
          >
            {pay.isPending || pay.isSuccess ? t('checkout.redirecting') : t('checkout.pay')}
          </button>
          <p className="hint">{t('checkout.payNote')}</p>
        </>
      ) : null}
    </div>
  );
}
