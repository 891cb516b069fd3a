import { useEffect, useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  checkFeedbackImage,
  FEEDBACK_CATEGORIES,
  FEEDBACK_DESCRIPTION_MAX,
  FEEDBACK_IMAGE_ACCEPT,
  FEEDBACK_MAX_IMAGES,
  FEEDBACK_SUGGESTION_MAX,
  FEEDBACK_TYPES,
  type Feedback,
  type FeedbackCategory,
  type FeedbackType,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { ConfirmDialog } from '../contacts/parts';
import { FEEDBACK_KEY, fetchFeedbackImage, myFeedbackQuery, sendFeedback } from './feedback-api';

interface Draft {
  type: FeedbackType | '';
  category: FeedbackCategory | '';
  description: string;
  suggestion: string;
  images: File[];
}
const EMPTY: Draft = { type: '', category: '', description: '', suggestion: '', images: [] };
const hasInput = (draft: Draft) => draft.description.trim() !== '' || draft.suggestion.trim() !== '' || draft.images.length > 0;

/** A chosen image's thumbnail, its object URL released when it leaves the form. */
function Preview({ file, onRemove, label }: { file: File; onRemove: () => void; label: string }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => {
    URL.revokeObjectURL(url);
  }, [url]);
  return (
    <li className="feedback-thumb" data-testid="feedback-preview">
      <img src={url} alt={file.name} />
      <button type="button" className="link-button" aria-label={label} onClick={onRemove}>
        ×
      </button>
    </li>
  );
}

/** An image of one's own feedback, fetched with the session and shown from a blob: URL. */
function SentImage({ feedbackId, imageId, name }: { feedbackId: string; imageId: string; name: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let created: string | null = null;
    let isCurrent = true;
    fetchFeedbackImage(feedbackId, imageId).then(
      (blob) => {
        if (!isCurrent) return;
        created = URL.createObjectURL(blob);
        setUrl(created);
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
      if (created !== null) URL.revokeObjectURL(created);
    };
  }, [feedbackId, imageId]);
  return <li className="feedback-thumb">{url === null ? <span className="hint">{name}</span> : <img src={url} alt={name} />}</li>;
}

function SentItem({ item }: { item: Feedback }) {
  const { t, i18n } = useTranslation('appProfiles');
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <li className="card feedback-item" data-testid="my-feedback">
      <p className="feedback-item-head">
        <strong>
          {t(`feedback.types.${item.type}`)} · {t(`feedback.categories.${item.category}`)}
        </strong>
        <span className={`badge feedback-status-${item.status.toLowerCase()}`}>{t(`feedback.statuses.${item.status}`)}</span>
      </p>
      <p className="hint">{format.format(new Date(item.createdAt))}</p>
      <p className="feedback-text">{item.description}</p>
      {item.images.length > 0 ? (
        <ul className="feedback-thumbs">
          {item.images.map((image) => (
            <SentImage key={image.id} feedbackId={item.id} imageId={image.id} name={image.name} />
          ))}
        </ul>
      ) : null}
      {item.replies.length === 0 ? (
        <p className="hint">{t('feedback.noReplies')}</p>
      ) : (
        <ul className="feedback-replies" data-testid="feedback-replies">
          {item.replies.map((reply) => (
            <li key={reply.id}>
              <span className="hint">{t('feedback.replyFrom', { at: format.format(new Date(reply.createdAt)) })}</span>
              <p className="feedback-text">{reply.body}</p>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * Question and feedback (spec §2; §3 Feedback; §5): the form — type, category, description,
 * suggestion, up to five images checked here by size and first bytes (the server checks again) —
 * and the account's feedback with customer care's replies. Changing the type once something is
 * written asks first, then clears what was written (spec §5).
 */
export function FeedbackPage() {
  const { t } = useTranslation('appProfiles');
  const queryClient = useQueryClient();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [pendingType, setPendingType] = useState<FeedbackType | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [isSubmitted, setSubmitted] = useState(false);
  const [isSent, setSent] = useState(false);
  const mine = useQuery(myFeedbackQuery());
  const send = useMutation({
    mutationFn: () => {
      if (draft.type === '' || draft.category === '') throw new Error('incomplete form');
      return sendFeedback({ type: draft.type, category: draft.category, description: draft.description, suggestion: draft.suggestion }, draft.images);
    },
    onSuccess: () => {
      setDraft(EMPTY);
      setSubmitted(false);
      setProblems([]);
      setSent(true);
      void queryClient.invalidateQueries({ queryKey: FEEDBACK_KEY });
    },
  });
  const errors = {
    type: isSubmitted && draft.type === '' ? t('feedback.form.typeRequired') : undefined,
    category: isSubmitted && draft.category === '' ? t('feedback.form.categoryRequired') : undefined,
    description: isSubmitted && draft.description.trim() === '' ? t('feedback.form.descriptionRequired') : undefined,
  };

  const onType = (value: string) => {
    const type = FEEDBACK_TYPES.find((candidate) => candidate === value);
    if (type === undefined || type === draft.type) return;
    if (draft.type !== '' && hasInput(draft)) setPendingType(type);
    else setDraft((current) => ({ ...current, type }));
  };

  const onFiles = async (list: FileList | null) => {
    const files = list === null ? [] : [...list];
    const found: string[] = [];
    const accepted: File[] = [];
    for (const file of files) {
      const problem = await checkFeedbackImage(file);
      if (problem === null) accepted.push(file);
      else found.push(t(`feedback.form.image.${problem}`, { name: file.name }));
    }
    const room = FEEDBACK_MAX_IMAGES - draft.images.length;
    if (accepted.length > room) found.push(t('feedback.form.image.tooMany', { count: FEEDBACK_MAX_IMAGES }));
    setProblems(found);
    setDraft((current) => ({ ...current, images: [...current.images, ...accepted.slice(0, Math.max(0, room))] }));
  };

  return (
    <div className="feedback-page">
      <p>
        <Link to="/">{t('feedback.back')}</Link>
      </p>
      <h1>{t('feedback.title')}</h1>
      <p className="hint">{t('feedback.intro')}</p>
      <form
        className="card feedback-form"
        noValidate
        data-testid="feedback-form"
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          setSent(false);
          if (draft.type !== '' && draft.category !== '' && draft.description.trim() !== '') send.mutate();
        }}
      >
        <label htmlFor={`${id}-type`}>{t('feedback.fields.type')}</label>
        <select
          id={`${id}-type`}
          value={draft.type}
          aria-invalid={errors.type !== undefined}
          aria-describedby={errors.type ? `${id}-type-error` : undefined}
          onChange={(event) => {
            onType(event.currentTarget.value);
          }}
          data-testid="feedback-type"
        >
          <option value="" disabled>
            {t('feedback.form.choose')}
          </option>
          {FEEDBACK_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`feedback.types.${type}`)}
            </option>
          ))}
        </select>
        {errors.type ? <p id={`${id}-type-error`} className="field-error">{errors.type}</p> : null}

        <label htmlFor={`${id}-category`}>{t('feedback.fields.category')}</label>
        <select
          id={`${id}-category`}
          value={draft.category}
          aria-invalid={errors.category !== undefined}
          onChange={(event) => {
            const category = FEEDBACK_CATEGORIES.find((candidate) => candidate === event.currentTarget.value) ?? '';
            setDraft((current) => ({ ...current, category }));
          }}
          data-testid="feedback-category"
        >
          <option value="" disabled>
            {t('feedback.form.choose')}
          </option>
          {FEEDBACK_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {t(`feedback.categories.${category}`)}
            </option>
          ))}
        </select>
        {errors.category ? <p className="field-error">{errors.category}</p> : null}

        <label htmlFor={`${id}-description`}>{t('feedback.fields.description')}</label>
        <textarea
          id={`${id}-description`}
          rows={4}
          maxLength={FEEDBACK_DESCRIPTION_MAX}
          value={draft.description}
          aria-invalid={errors.description !== undefined}
          onChange={(event) => {
            const description = event.currentTarget.value;
            setDraft((current) => ({ ...current, description }));
          }}
          data-testid="feedback-description"
        />
        {errors.description ? <p className="field-error">{errors.description}</p> : null}

        <label htmlFor={`${id}-suggestion`}>{t('feedback.fields.suggestion')}</label>
        <textarea
          id={`${id}-suggestion`}
          rows={2}
          maxLength={FEEDBACK_SUGGESTION_MAX}
          value={draft.suggestion}
          onChange={(event) => {
            const suggestion = event.currentTarget.value;
            setDraft((current) => ({ ...current, suggestion }));
          }}
          data-testid="feedback-suggestion"
        />

        <label htmlFor={`${id}-images`}>{t('feedback.form.images', { count: FEEDBACK_MAX_IMAGES })}</label>
        <input
          id={`${id}-images`}
          type="file"
          accept={FEEDBACK_IMAGE_ACCEPT}
          multiple
          disabled={draft.images.length >= FEEDBACK_MAX_IMAGES}
          onChange={(event) => {
            const input = event.currentTarget;
            void onFiles(input.files).finally(() => {
              input.value = '';
            });
          }}
          data-testid="feedback-images"
        />
        {problems.length > 0 ? (
          <div role="alert" data-testid="feedback-image-problems">
            {problems.map((problem) => (
              <p key={problem} className="field-error">
                {problem}
              </p>
            ))}
          </div>
        ) : null}
        {draft.images.length > 0 ? (
          <ul className="feedback-thumbs">
            {draft.images.map((file, index) => (
              <Preview
                key={`${file.name}-${String(index)}`}
                file={file}
                label={t('feedback.form.removeImage', { name: file.name })}
                onRemove={() => {
                  setDraft((current) => ({ ...current, images: current.images.filter((_, position) => position !== index) }));
                }}
              />
            ))}
          </ul>
        ) : null}

        {send.isError ? <Alert>{t('feedback.form.failed', { reason: errorMessage(send.error) })}</Alert> : null}
        {isSent ? (
          <p role="status" className="feedback-sent" data-testid="feedback-sent">
            {t('feedback.form.sent')}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={send.isPending} data-testid="feedback-submit">
          {send.isPending ? t('feedback.form.sending') : t('feedback.form.submit')}
        </button>
      </form>

      <h2>{t('feedback.mine')}</h2>
      {mine.isPending ? <p role="status">{t('feedback.loading')}</p> : null}
      {mine.isError ? <Alert>{errorMessage(mine.error)}</Alert> : null}
      {mine.data?.total === 0 ? <p className="hint">{t('feedback.empty')}</p> : null}
      {mine.data && mine.data.items.length > 0 ? (
        <ul className="feedback-list">
          {mine.data.items.map((item) => (
            <SentItem key={item.id} item={item} />
          ))}
        </ul>
      ) : null}

      {pendingType === null ? null : (
        <ConfirmDialog
          title={t('feedback.form.changeTypeTitle')}
          body={t('feedback.form.changeTypeText')}
          confirm={t('feedback.form.changeTypeConfirm')}
          busy={false}
          onConfirm={() => {
            setDraft({ ...EMPTY, type: pendingType, category: draft.category });
            setProblems([]);
            setPendingType(null);
          }}
          onCancel={() => {
            setPendingType(null);
          }}
        />
      )}
    </div>
  );
}
