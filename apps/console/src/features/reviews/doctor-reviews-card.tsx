import { Group, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatNumber } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { ReviewStars } from './review-badges';
import { doctorReviewsQuery } from './reviews-api';

/**
 * The doctor profile's ratings and reviews (spec §3 doctor profile): the average of the visible
 * reviews and the latest of them, five a page, each with the author's initial only.
 */
export function DoctorReviewsCard({ doctorId }: { doctorId: string }) {
  const { t } = useTranslation('doctors');
  const [page, setPage] = useState(0);
  const reviews = useQuery(doctorReviewsQuery(doctorId, page));
  return (
    <Paper withBorder radius="md" p="lg" data-testid="doctor-reviews">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('reviews.profileTitle')}
          </Title>
          {reviews.isSuccess ? (
            <Group gap={6} data-testid="doctor-rating">
              <ReviewStars value={reviews.data.ratingAverage} />
              <Text fz="sm" fw={600}>
                {formatNumber(reviews.data.ratingAverage, 1)}
              </Text>
              <Text fz="sm" c="dimmed">
                {t('profile.reviews', { count: reviews.data.ratingCount })}
              </Text>
            </Group>
          ) : null}
        </Group>
        {reviews.isPending ? <LoadingState /> : null}
        {reviews.isError ? <ErrorState error={reviews.error} onRetry={() => void reviews.refetch()} /> : null}
        {reviews.isSuccess && reviews.data.items.length === 0 ? <EmptyList title={t('reviews.noneYet')} /> : null}
        {reviews.isSuccess
          ? reviews.data.items.map((review) => (
              <Stack key={review.id} gap={4} pb="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                <Group gap="sm">
                  <ReviewStars value={review.rating} size="xs" />
                  <Text fz="xs" c="dimmed">
                    {t('reviews.byInitial', { initial: review.authorInitial === '' ? '?' : review.authorInitial, date: formatDate(review.createdAt) })}
                  </Text>
                </Group>
                <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {review.message === '' ? t('reviews.noMessage') : review.message}
                </Text>
              </Stack>
            ))
          : null}
        {reviews.isSuccess && reviews.data.total > reviews.data.size ? (
          <Pagination
            total={Math.ceil(reviews.data.total / reviews.data.size)}
            value={page + 1}
            onChange={(value) => {
              setPage(value - 1);
            }}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`reviews.pager.${control}`) })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
