import { formatMoney, type Order } from '@rpm/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { myOrderQuery } from './checkout-api';
import { SUBSCRIPTION_KEY } from './subscription-api';

/** The order's state in words: paid, waiting for the provider, or why it was not paid. */
export function OrderOutcome({ order }: { order: Order }) {
  const { t } = useTranslation('appProfiles');
  if (order.status === 'SUCCESS')
    return (
      <p role="status" className="payment-outcome payment-success" data-testid="payment-outcome">
        {order.fulfilment === 'FAILED' ? t('payment.paidNotStarted') : t('payment.success', { name: order.packageName })}
      </p>
    );
  if (order.status === 'PENDING')
    return (
      <p role="status" className="payment-outcome" data-testid="payment-outcome">
        {t('payment.pending')}
      </p>
    );
  return (
    <p role="alert" className="payment-outcome payment-failed" data-testid="payment-outcome">
      {t(`payment.statuses.${order.status}`)}
      {order.result === null || order.result === 'success' ? '' : ` — ${t(`results.${order.result}`, { ns: 'payments' })}`}
    </p>
  );
}

/**
 * /payment/result?orderId=CODE — where the payment provider sends the patient back: the order's
 * outcome as the provider reported it to the server (asked again every 2 s while it is pending),
 * its figures, and the way back to My package.
 */
export function PaymentResultPage() {
  const { t, i18n } = useTranslation('appProfiles');
  const [params] = useSearchParams();
  const code = params.get('orderId') ?? '';
  const queryClient = useQueryClient();
  const order = useQuery({ ...myOrderQuery(code), enabled: code !== '' });
  const settled = order.data !== undefined && order.data.status !== 'PENDING';
  // A paid order changed the package: what My package shows is stale.
  useEffect(() => {
    if (settled) void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_KEY, exact: false, refetchType: 'none' });
  }, [settled, queryClient]);
  return (
    <div className="subscription-page payment-result-page">
      <h1>{t('payment.title')}</h1>
      {code === '' ? <Alert>{t('payment.noOrder')}</Alert> : null}
      {order.isPending && code !== '' ? <p role="status">{t('loading', { ns: 'patient' })}</p> : null}
      {order.isError ? <Alert>{errorMessage(order.error)}</Alert> : null}
      {order.data ? (
        <section className="card" aria-label={t('payment.order')}>
          <OrderOutcome order={order.data} />
          <dl className="payment-facts">
            <dt>{t('payment.orderCode')}</dt>
            <dd data-testid="payment-order-code">{order.data.code}</dd>
            <dt>{t('payment.package')}</dt>
            <dd>{order.data.packageName}</dd>
            <dt>{t('checkout.total')}</dt>
            <dd>{formatMoney(order.data.totalMinor, order.data.currency, i18n.language)}</dd>
          </dl>
        </section>
      ) : null}
      <p>
        <Link to="/subscription">{t('payment.toPackage')}</Link>
      </p>
    </div>
  );
}
