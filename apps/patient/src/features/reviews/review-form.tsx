import {
  REVIEW_IMAGE_MAX_BYTES,
  REVIEW_IMAGE_TYPES,
  REVIEW_MAX_IMAGES,
  REVIEW_MESSAGE_MAX,
  type MyReview,
} from '@rpm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { REVIEWS_KEY, submitReview, type ReviewSubjectPath } from './reviews-api';
import './reviews.css';

const STARS = [1, 2, 3, 4, 5] as const;
/** File types the picker offers; the server checks the content again. */
const ACCEPT = REVIEW_IMAGE_TYPES.join(',');

interface Problems {
  rating?: string;
  message?: string;
  images?: string;
}

/**
 * Stars as a radio group: one tab stop, arrow keys move between the stars, each read out as
 * "n of 5 stars" (a native radio group, drawn as stars).
 */
export function StarPicker({ value, onChange, error }: { value: number; onChange: (value: number) => void; error?: string }) {
  const { t } = useTranslation('appDoctors');
  const name = useId();
  return (
    <fieldset className="star-picker" aria-invalid={error ? true : undefined} aria-describedby={error ? `${name}-error` : undefined}>
      <legend>{t('review.rating')}</legend>
      <div className="star-picker-stars">
        {STARS.map((star) => (
          <label key={star} className={star <= value ? 'star-on' : 'star-off'}>
            <input
              type="radio"
              name={name}
              value={star}
              checked={value === star}
              onChange={() => {
                onChange(star);
              }}
            />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{t('review.stars', { count: star })}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${name}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * The patient's rating of a doctor or of a completed appointment: stars, a message and up to three
 * images (png, jpeg, gif or webp, at most 5 MB each, checked here and again by the server). A
 * second submission replaces the first; its images stay unless new ones are chosen.
 */
export function ReviewForm({ subject, existing, onDone }: { subject: ReviewSubjectPath; existing: MyReview | undefined; onDone?: () => void }) {
  const { t } = useTranslation('appDoctors');
  const queryClient = useQueryClient();
  const messageId = useId();
  const imagesId = useId();
  const [rating, setRating] = useState(existing?.rating ?? 0);
  const [message, setMessage] = useState(existing?.message ?? '');
  const [images, setImages] = useState<File[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const send = useMutation({
    mutationFn: () => submitReview(subject, { rating, message: message.trim(), images }),
    onSuccess: async () => {
      setImages([]);
      await queryClient.invalidateQueries({ queryKey: REVIEWS_KEY });
      // The doctor's profile shows the new average.
      await queryClient.invalidateQueries({ queryKey: ['session', 'doctors'] });
      onDone?.();
    },
  });
  const check = (): Problems => {
    const found: Problems = {};
    if (rating < 1 || rating > 5) found.rating = t('review.ratingRequired');
    if (message.trim().length > REVIEW_MESSAGE_MAX) found.message = t('review.messageTooLong', { max: REVIEW_MESSAGE_MAX });
    if (images.length > REVIEW_MAX_IMAGES) found.images = t('review.tooManyImages', { max: REVIEW_MAX_IMAGES });
    else if (images.some((image) => image.size > REVIEW_IMAGE_MAX_BYTES)) found.images = t('review.imageTooLarge');
    else if (images.some((image) => !(REVIEW_IMAGE_TYPES as readonly string[]).includes(image.type))) found.images = t('review.imageType');
    return found;
  };
  const onSubmit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = check();
    setProblems(found);
    if (Object.keys(found).length === 0) send.mutate();
  };
  return (
    <form className="review-form" noValidate onSubmit={onSubmit} data-testid="review-form">
      {send.isSuccess ? <Alert tone="info">{t('review.saved')}</Alert> : null}
      {existing !== undefined && !send.isSuccess ? <p className="hint">{t('review.editing')}</p> : null}
      <StarPicker
        value={rating}
        onChange={(value) => {
          setRating(value);
          setProblems((current) => ({ ...current, rating: undefined }));
        }}
        error={problems.rating}
      />
      <div className="field">
        <label htmlFor={messageId}>{t('review.message')}</label>
        <textarea
          id={messageId}
          value={message}
          maxLength={REVIEW_MESSAGE_MAX}
          aria-invalid={problems.message ? true : undefined}
          aria-describedby={problems.message ? `${messageId}-error` : undefined}
          onChange={(event) => {
            setMessage(event.target.value);
          }}
        />
        {problems.message ? (
          <p id={`${messageId}-error`} className="field-error">
            {problems.message}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={imagesId}>{t('review.images', { max: REVIEW_MAX_IMAGES })}</label>
        <input
          id={imagesId}
          type="file"
          accept={ACCEPT}
          multiple
          aria-invalid={problems.images ? true : undefined}
          aria-describedby={`${imagesId}-hint${problems.images ? ` ${imagesId}-error` : ''}`}
          onChange={(event) => {
            setImages(Array.from(event.target.files ?? []));
            setProblems((current) => ({ ...current, images: undefined }));
          }}
        />
        <p id={`${imagesId}-hint`} className="hint">
          {existing !== undefined && existing.images.length > 0
            ? t('review.imagesKept', { count: existing.images.length })
            : t('review.imagesHint')}
        </p>
        {problems.images ? (
          <p id={`${imagesId}-error`} className="field-error">
            {problems.images}
          </p>
        ) : null}
      </div>
      {send.isError ? <Alert>{errorMessage(send.error)}</Alert> : null}
      <div className="doctor-actions">
        <button type="submit" className="primary" disabled={send.isPending}>
          {existing === undefined ? t('review.submit') : t('review.update')}
        </button>
      </div>
    </form>
  );
}
