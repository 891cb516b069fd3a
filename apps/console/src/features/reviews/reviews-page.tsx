import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { REVIEW_STATES, type Review } from '@rpm/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { usePageTitle } from '../shell/use-page-title';
import { ReviewStars, ReviewStateBadge } from './review-badges';
import { ReviewDetailDrawer } from './review-detail';
import { reviewListQuery, type ReviewFilter, type ReviewSortField } from './reviews-api';

const RATINGS = ['1', '2', '3', '4', '5'] as const;
/**
 * Rating and review management (spec §2): the reviews of the doctors and patients the caller's
 * level sees, searchable, filtered by rating and state, sorted and paged by the server; a row
 * opens the review with its images, where it is reported, hidden or shown again with a reason.
 */
export function ReviewsPage() {
  const { t } = useTranslation('doctors');
  usePageTitle(t('reviews.title'));
  const [openId, setOpenId] = useState<string | null>(null);
  const paged = usePagedList<ReviewSortField, Omit<ReviewFilter, 'search'>>({
    page: 0,
    size: 10,
    sortField: 'created',
    sortType: 'desc',
    rating: null,
    state: null,
    doctorId: null,
  });
  const { filter, update, debouncedSearch } = paged;
  const reviews = useQuery(reviewListQuery({ ...filter, search: debouncedSearch }));
  const isFiltered = debouncedSearch !== '' || filter.rating !== null || filter.state !== null;
  const columns: Column<Review, ReviewSortField>[] = [
    {
      id: 'created',
      header: t('reviews.written'),
      sortField: 'created',
      cell: (review) => (
        <Anchor
          component="button"
          type="button"
          fw={600}
          onClick={() => {
            setOpenId(review.id);
          }}
        >
          {formatDateTime(review.createdAt)}
        </Anchor>
      ),
    },
    {
      id: 'rating',
      header: t('reviews.rating'),
      sortField: 'rating',
      cell: (review) => <ReviewStars value={review.rating} size="xs" />,
    },
    {
      id: 'doctor',
      header: t('reviews.doctor'),
      sortField: 'doctor',
      cell: (review) => review.doctor.fullName,
    },
    { id: 'patient', header: t('reviews.patient'), cell: (review) => review.patient.fullName },
    {
      id: 'message',
      header: t('reviews.message'),
      cell: (review) => (
        <Text fz="sm" lineClamp={2} maw={360}>
          {review.message === '' ? t('reviews.noMessage') : review.message}
        </Text>
      ),
    },
    { id: 'state', header: t('reviews.stateLabel'), cell: (review) => <ReviewStateBadge state={review.state} /> },
  ];

  return (
    <Stack gap="lg" maw={1280}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('reviews.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('reviews.subtitle')}
        </Text>
      </Stack>
      <Group gap="sm" align="flex-end">
        <ListSearchField list={paged} label={t('reviews.search')} placeholder={t('reviews.searchPlaceholder')} width={280} />
        <ValueFilter
          values={RATINGS}
          labelOf={(rating) => t('reviews.stars', { value: Number(rating) })}
          value={filter.rating === null ? null : (RATINGS.find((rating) => Number(rating) === filter.rating) ?? null)}
          onChange={(rating) => {
            update({ rating: rating === null ? null : Number(rating) });
          }}
          label={t('reviews.ratingFilter')}
          placeholder={t('list.any')}
          width={170}
        />
        <ValueFilter
          values={REVIEW_STATES}
          labelOf={(state) => t(`reviews.state.${state}`)}
          value={filter.state}
          onChange={(state) => {
            update({ state });
          }}
          label={t('reviews.stateFilter')}
          placeholder={t('list.any')}
          width={170}
        />
      </Group>
      <DataTable
        columns={columns}
        query={reviews}
        list={paged}
        label={t('reviews.title')}
        testId="reviews-table"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('reviews.loadFailed'),
          emptyTitle: t('reviews.emptyTitle'),
          emptyHint: t('reviews.emptyHint'),
          noMatchTitle: t('reviews.noMatchTitle'),
          noMatchHint: t('reviews.noMatchHint'),
        }}
      />
      <ReviewDetailDrawer
        reviewId={openId}
        onClose={() => {
          setOpenId(null);
        }}
      />
    </Stack>
  );
}
