import { MY_TICKET_RATING_MESSAGE_MAX, type MyTicket } from '@rpm/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { PagedList } from '../../ui/paged-list';
import { StarPicker } from '../reviews/review-form';
import { myTicketsQuery, rateTicket, TICKETS_KEY } from './tickets-api';

/** Stars, an optional message and a button: the patient's rating of a finished ticket. */
function RatingForm({ ticket, onDone }: { ticket: MyTicket; onDone: () => void }) {
  const { t } = useTranslation('appProfiles');
  const queryClient = useQueryClient();
  const messageId = useId();
  const [rating, setRating] = useState(ticket.rating ?? 0);
  const [message, setMessage] = useState(ticket.ratingMessage);
  const [problem, setProblem] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: () => rateTicket(ticket.id, { rating, message: message.trim() }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
      onDone();
    },
  });
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (rating < 1 || rating > 5) {
      setProblem(t('tickets.ratingRequired'));
      return;
    }
    send.mutate();
  };
  return (
    <form className="ticket-rating-form" noValidate onSubmit={onSubmit} data-testid="ticket-rating-form">
      <StarPicker
        value={rating}
        onChange={(value) => {
          setRating(value);
          setProblem(undefined);
        }}
        error={problem}
      />
      <div className="field">
        <label htmlFor={messageId}>{t('tickets.message')}</label>
        <textarea
          id={messageId}
          value={message}
          maxLength={MY_TICKET_RATING_MESSAGE_MAX}
          onChange={(event) => {
            setMessage(event.target.value);
          }}
        />
      </div>
      {send.isError ? <Alert>{errorMessage(send.error)}</Alert> : null}
      <div className="ticket-rating-actions">
        <button type="submit" className="primary" disabled={send.isPending}>
          {send.isPending ? t('tickets.sending') : t('tickets.send')}
        </button>
        <button type="button" onClick={onDone} disabled={send.isPending}>
          {t('tickets.cancel')}
        </button>
      </div>
    </form>
  );
}

function Stars({ value }: { value: number }) {
  const { t } = useTranslation('appProfiles');
  return (
    <span className="ticket-stars" role="img" aria-label={t('tickets.stars', { count: value })}>
      {'★'.repeat(value)}
      <span className="ticket-stars-off">{'★'.repeat(5 - value)}</span>
    </span>
  );
}

function TicketItem({ ticket }: { ticket: MyTicket }) {
  const { t, i18n } = useTranslation('appProfiles');
  const [isRating, setRating] = useState(false);
  const [justRated, setJustRated] = useState(false);
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <li className="card ticket-item" data-testid="my-ticket">
      <p className="ticket-item-head">
        <strong>
          #{ticket.number} · {ticket.title}
        </strong>
        <span className={`badge ticket-status-${ticket.status.toLowerCase()}`} data-testid="ticket-status">
          {t(`tickets.statuses.${ticket.status}`)}
        </span>
      </p>
      <p className="hint">
        {t(`tickets.types.${ticket.type}`)} ·{' '}
        {t('tickets.opened', { at: format.format(new Date(ticket.createdAt)) })}
      </p>
      {justRated ? (
        <p role="status" className="ticket-thanks">
          {t('tickets.thanks')}
        </p>
      ) : null}
      {ticket.rating !== null && !isRating ? (
        <div className="ticket-rating" data-testid="ticket-rating">
          <Stars value={ticket.rating} />
          {ticket.ratingMessage === '' ? null : (
            <p className="ticket-rating-message">{ticket.ratingMessage}</p>
          )}
        </div>
      ) : null}
      {isRating ? (
        <RatingForm
          ticket={ticket}
          onDone={() => {
            setRating(false);
            setJustRated(true);
          }}
        />
      ) : ticket.ratable ? (
        <button
          type="button"
          onClick={() => {
            setRating(true);
            setJustRated(false);
          }}
        >
          {ticket.rating === null ? t('tickets.rate') : t('tickets.changeRating')}
        </button>
      ) : (
        <p className="hint">{t('tickets.rateLater')}</p>
      )}
    </li>
  );
}

/**
 * /tickets — the requests the health center opened for the profile (SOS, alerts, consultations,
 * support), newest first, a page at a time; once one's work is done the patient rates how it was
 * handled (1 to 5 stars and a message), and may change the rating later.
 */
export function TicketsPage() {
  const { t } = useTranslation('appProfiles');
  const list = useInfiniteQuery(myTicketsQuery());
  return (
    <div className="tickets-page">
      <p>
        <Link to="/">{t('feedback.back')}</Link>
      </p>
      <h1>{t('tickets.title')}</h1>
      <p className="hint">{t('tickets.intro')}</p>
      <section aria-label={t('tickets.title')} aria-busy={list.isFetching}>
        <PagedList
          list={list}
          empty={t('tickets.empty')}
          listClassName="ticket-list"
          itemKey={(ticket) => ticket.id}
          renderItem={(ticket) => <TicketItem ticket={ticket} />}
        />
      </section>
    </div>
  );
}
