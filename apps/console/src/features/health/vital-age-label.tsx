import { useEffect, useState } from 'react';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { formatVitalAge, STALE_AFTER_MINUTES, vitalAge } from './vital-age';

/** The current time, renewed every `intervalMs` so ages stay true while a screen stays open. */
export function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => {
      setNow(new Date());
    }, intervalMs);
    return () => {
      window.clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}

/**
 * A reading's time as "dd/MM/yyyy HH:mm · 12 minutes ago", with a "stale" badge past
 * {@link STALE_AFTER_MINUTES} (text, not colour alone, and a tooltip saying why).
 */
export function VitalAgeLabel({
  measuredAt,
  showDate = true,
  fz = 'xs',
}: {
  measuredAt: string;
  showDate?: boolean;
  fz?: 'xs' | 'sm';
}) {
  const { t, i18n } = useTranslation('health');
  const now = useNow();
  const age = vitalAge(measuredAt, now);
  if (age === null) return null;
  const ageText = formatVitalAge(age, i18n.language);
  return (
    <Group gap={6} wrap="wrap" data-testid="vital-age" data-stale={age.isStale ? 'true' : 'false'}>
      <Text fz={fz} c="dimmed">
        {showDate ? `${formatDateTime(measuredAt)} · ` : ''}
        <span data-testid="vital-age-text">{ageText}</span>
      </Text>
      {age.isStale ? (
        <Tooltip label={t('age.staleHint', { minutes: STALE_AFTER_MINUTES })} withArrow>
          <Badge
            size="xs"
            color="orange"
            variant="outline"
            tt="none"
            data-testid="vital-stale"
            aria-label={`${t('age.stale')}: ${t('age.staleHint', { minutes: STALE_AFTER_MINUTES })}`}
          >
            {t('age.stale')}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
