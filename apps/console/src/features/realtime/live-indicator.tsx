import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLiveStatus } from './live-context';

const COLORS = { live: 'teal', connecting: 'gray', reconnecting: 'orange' } as const;

/** The header's connection indicator: live, connecting or reconnecting (announced politely). */
export function LiveIndicator() {
  const { t } = useTranslation('realtime');
  const status = useLiveStatus();
  return (
    <Badge
      variant="dot"
      color={COLORS[status]}
      size="lg"
      role="status"
      aria-live="polite"
      aria-label={t('status.label', { status: t(`status.${status}`) })}
      data-testid="live-status"
      data-status={status}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
