import { Badge, Rating } from '@mantine/core';
import type { ReviewState } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

const STATE_COLOR: Record<ReviewState, string> = { VISIBLE: 'teal', REPORTED: 'orange', HIDDEN: 'gray' };

/** A review's state as a badge (visible, reported, hidden). */
export function ReviewStateBadge({ state }: { state: ReviewState }) {
  const { t } = useTranslation('doctors');
  return (
    <Badge color={STATE_COLOR[state]} variant="light">
      {t(`reviews.state.${state}`)}
    </Badge>
  );
}

/** Stars for a rating, read by screen readers as "4 of 5 stars". */
export function ReviewStars({ value, size = 'sm' }: { value: number; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useTranslation('doctors');
  return <Rating value={value} fractions={10} readOnly size={size} role="img" aria-label={t('reviews.stars', { value })} />;
}

