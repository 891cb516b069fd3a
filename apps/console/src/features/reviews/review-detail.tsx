import { Alert, Button, Drawer, Group, Image, Loader, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { nextReviewState, REVIEW_ACTIONS, type Review, type ReviewAction, type ReviewImage } from '@rpm/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDateTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFileBlob } from '../medical-records/use-file-blob';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { moderateReview, refreshReviews, reviewImagePath, reviewQuery } from './reviews-api';
import { ReviewStars, ReviewStateBadge } from './review-badges';

function ReviewImageView({ reviewId, image, index }: { reviewId: string; image: ReviewImage; index: number }) {
  const { t } = useTranslation('doctors');
  const blob = useFileBlob(reviewImagePath(reviewId, image.id), image.contentType);
  if (blob.status === 'loading') return <Loader size="sm" aria-label={t('reviews.imageLoading')} />;
  if (blob.status === 'error') return <Text c="red" fz="sm">{t('reviews.imageFailed')}</Text>;
  return (
    <Anchorless href={blob.url}>
      <Image src={blob.url} alt={t('reviews.imageAlt', { number: index + 1 })} radius="sm" h={140} fit="contain" />
    </Anchorless>
  );
}

/** Opens the full image in a new tab. */
function Anchorless({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}

/** Asks for the reason of a moderation action and sends it; the server's refusal shows inside. */
function ModerationDialog({ review, action, onClose }: { review: Review; action: ReviewAction | null; onClose: () => void }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [isTouched, setTouched] = useState(false);
  const mutation = useMutation({
    mutationFn: (input: { action: ReviewAction; reason: string }) => moderateReview(review.id, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: async (_, input) => {
      notifySuccess(t(`reviews.done.${input.action}`));
      await refreshReviews(queryClient);
      setReason('');
      setTouched(false);
      onClose();
    },
  });
  const isBlank = reason.trim() === '';
  const close = () => {
    mutation.reset();
    setReason('');
    setTouched(false);
    onClose();
  };
  return (
    <Modal opened={action !== null} onClose={close} title={action === null ? '' : t(`reviews.action.${action}`)} centered>
      {action === null ? null : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (!isBlank) mutation.mutate({ action, reason: reason.trim() });
          }}
        >
          <Stack gap="md">
            <Textarea
              label={action === 'report' ? t('reviews.reportMessage') : t('reviews.reason')}
              description={t(`reviews.reasonHint.${action}`)}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
              }}
              error={isTouched && isBlank ? t('reviews.reasonRequired') : undefined}
              maxLength={500}
              autosize
              minRows={3}
              required
              data-autofocus
            />
            {mutation.isError ? (
              <Alert color="red" variant="light" role="alert">
                {messageText(errorMessageFor(mutation.error))}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {tc('actions.cancel')}
              </Button>
              <Button type="submit" loading={mutation.isPending} color={action === 'hide' ? 'red' : undefined}>
                {t(`reviews.action.${action}`)}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function Labelled({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

function ReviewBody({ review }: { review: Review }) {
  const { t } = useTranslation('doctors');
  const [action, setAction] = useState<ReviewAction | null>(null);
  const allowed = REVIEW_ACTIONS.filter((candidate) => nextReviewState(review.state, candidate) !== undefined);
  return (
    <Stack gap="md" data-testid="review-detail">
      <Group justify="space-between">
        <ReviewStars value={review.rating} size="md" />
        <ReviewStateBadge state={review.state} />
      </Group>
      <Labelled label={t('reviews.message')}>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{review.message === '' ? t('reviews.noMessage') : review.message}</Text>
      </Labelled>
      <SimpleGrid cols={2}>
        <Labelled label={t('reviews.doctor')}>{review.doctor.fullName}</Labelled>
        <Labelled label={t('reviews.patient')}>{review.patient.fullName}</Labelled>
        <Labelled label={t('reviews.subjectLabel')}>
          {review.appointmentStartsAt === null
            ? t('reviews.subject.DOCTOR')
            : t('reviews.subject.APPOINTMENT', { date: formatDateTime(review.appointmentStartsAt) })}
        </Labelled>
        <Labelled label={t('reviews.written')}>{formatDateTime(review.updatedAt)}</Labelled>
      </SimpleGrid>
      <Labelled label={t('reviews.images', { count: review.images.length })}>
        {review.images.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('reviews.noImages')}
          </Text>
        ) : (
          <SimpleGrid cols={3}>
            {review.images.map((image, index) => (
              <ReviewImageView key={image.id} reviewId={review.id} image={image} index={index} />
            ))}
          </SimpleGrid>
        )}
      </Labelled>
      {review.reportMessage === null ? null : (
        <Alert color="orange" variant="light" title={t('reviews.reportedBy', { name: review.reportedBy?.fullName ?? '', date: formatDateTime(review.reportedAt ?? review.updatedAt) })}>
          {review.reportMessage}
        </Alert>
      )}
      {review.hiddenReason === null ? null : (
        <Alert color="gray" variant="light" title={t('reviews.hiddenBy', { name: review.hiddenBy?.fullName ?? '', date: formatDateTime(review.hiddenAt ?? review.updatedAt) })}>
          {review.hiddenReason}
        </Alert>
      )}
      <Can permission="staff.update">
        <Group>
          {allowed.map((candidate) => (
            <Button
              key={candidate}
              variant={candidate === 'hide' ? 'filled' : 'light'}
              color={candidate === 'hide' ? 'red' : undefined}
              onClick={() => {
                setAction(candidate);
              }}
            >
              {t(`reviews.action.${candidate}`)}
            </Button>
          ))}
        </Group>
      </Can>
      <ModerationDialog
        review={review}
        action={action}
        onClose={() => {
          setAction(null);
        }}
      />
    </Stack>
  );
}

/** One review in a drawer: rating, message, author, doctor, images and its moderation trail. */
export function ReviewDetailDrawer({ reviewId, onClose }: { reviewId: string | null; onClose: () => void }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const detail = useQuery({ ...reviewQuery(reviewId ?? ''), enabled: reviewId !== null });
  return (
    <Drawer
      opened={reviewId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={
        <Text component="span" fz="lg" fw={700}>
          {t('reviews.detailTitle')}
        </Text>
      }
      closeButtonProps={{ 'aria-label': tc('actions.back') }}
    >
      {reviewId === null ? null : (
        <>
          {detail.isPending ? <LoadingState /> : null}
          {detail.isError ? <ErrorState error={detail.error} onRetry={() => void detail.refetch()} /> : null}
          {detail.isSuccess ? <ReviewBody review={detail.data} /> : null}
        </>
      )}
    </Drawer>
  );
}
