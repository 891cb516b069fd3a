import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { RatingStars, dateText } from '../doctors/doctor-labels';
import { useViewOnlyProfile } from '../profiles/view-only';
import { ReviewForm } from './review-form';
import { doctorReviewsQuery, myReviewsQuery } from './reviews-api';

/**
 * The doctor page's ratings and reviews: the average of the visible reviews, the latest of them
 * with the author's initial only, and the profile's own rating of the doctor (written or edited
 * here; a followed patient's profile only reads).
 */
export function DoctorReviewsCard({ doctorId }: { doctorId: string }) {
  const { t, i18n } = useTranslation('appDoctors');
  const viewOnly = useViewOnlyProfile();
  const reviews = useQuery(doctorReviewsQuery(doctorId));
  const mine = useQuery({ ...myReviewsQuery(), enabled: viewOnly === null });
  const own = mine.data?.items.find((review) => review.doctorId === doctorId && review.appointmentId === null);
  return (
    <section className="card" aria-labelledby="doctor-reviews-heading" data-testid="doctor-reviews">
      <h2 id="doctor-reviews-heading">{t('review.title')}</h2>
      {reviews.isPending ? <p role="status">{t('loading')}</p> : null}
      {reviews.isError ? <Alert>{errorMessage(reviews.error)}</Alert> : null}
      {reviews.data ? (
        <>
          <p data-testid="doctor-average">
            <RatingStars average={reviews.data.ratingAverage} count={reviews.data.ratingCount} />
          </p>
          {reviews.data.items.length === 0 ? <p className="hint">{t('review.none')}</p> : null}
          <ul className="review-list">
            {reviews.data.items.map((review) => (
              <li key={review.id}>
                <span className="doctor-stars" role="img" aria-label={t('review.stars', { count: review.rating })}>
                  {'★'.repeat(review.rating)}
                  <span className="doctor-stars-empty">{'★'.repeat(5 - review.rating)}</span>
                </span>{' '}
                <span className="doctor-meta">
                  {t('review.byInitial', { initial: review.authorInitial === '' ? '?' : review.authorInitial, date: dateText(review.createdAt, i18n.language) })}
                </span>
                {review.message === '' ? null : <p>{review.message}</p>}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {viewOnly === null && mine.isSuccess ? (
        <>
          <h3>{own === undefined ? t('review.rateDoctor') : t('review.yourReview')}</h3>
          {own?.isHidden === true ? <p className="hint">{t('review.hidden')}</p> : null}
          <ReviewForm subject={{ doctorId }} existing={own} />
        </>
      ) : null}
    </section>
  );
}

/** A completed appointment's rating on its detail page (the profile's own; followers only read). */
export function AppointmentReviewCard({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('appDoctors');
  const viewOnly = useViewOnlyProfile();
  const mine = useQuery({ ...myReviewsQuery(), enabled: viewOnly === null });
  if (viewOnly !== null) return null;
  const own = mine.data?.items.find((review) => review.appointmentId === appointmentId);
  return (
    <section className="card" aria-labelledby="appointment-review-heading" data-testid="appointment-review">
      <h2 id="appointment-review-heading">{own === undefined ? t('review.rateAppointment') : t('review.yourReview')}</h2>
      {mine.isPending ? <p role="status">{t('loading')}</p> : null}
      {mine.isError ? <Alert>{errorMessage(mine.error)}</Alert> : null}
      {own?.isHidden === true ? <p className="hint">{t('review.hidden')}</p> : null}
      {mine.isSuccess ? <ReviewForm subject={{ appointmentId }} existing={own} /> : null}
    </section>
  );
}
