import { formatMoney, type Order } from '@rpm/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PagedList } from '../../ui/paged-list';
import { myOrdersQuery } from './checkout-api';

function OrderItem({ order }: { order: Order }) {
  const { t, i18n } = useTranslation('appProfiles');
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(order.createdAt));
  return (
    <li className="card" data-testid="my-order">
      <p className="subscription-head">
        <strong>{order.packageName}</strong>
        <span className={`subscription-status order-status-${order.status.toLowerCase()}`}>{t(`payment.statuses.${order.status}`)}</span>
      </p>
      <p className="hint">
        {formatMoney(order.totalMinor, order.currency, i18n.language)} · {date} ·{' '}
        <Link to={`/payment/result?orderId=${encodeURIComponent(order.code)}`}>{order.code}</Link>
      </p>
    </li>
  );
}

/** My package's payments: the profile's orders, newest first, with their outcome. */
export function OrdersSection() {
  const { t } = useTranslation('appProfiles');
  const list = useInfiniteQuery(myOrdersQuery());
  return (
    <section aria-label={t('payment.history')}>
      <h2>{t('payment.history')}</h2>
      <PagedList list={list} empty={t('payment.noOrders')} listClassName="subscription-list" itemKey={(order) => order.id} renderItem={(order) => <OrderItem order={order} />} />
    </section>
  );
}
