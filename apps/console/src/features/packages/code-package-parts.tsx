import { Badge, Text } from '@mantine/core';
import type { CodePackage, CodeState } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatNumber, toDisplayDate } from '../../lib/format';

const STATE_COLOR: Record<CodeState, string> = {
  NOT_PAID: 'gray',
  PAID: 'teal',
  USED: 'blue',
  LOCKED: 'red',
};

/** A code's state (spec §4: not paid, paid, used, locked) as a badge. */
export function CodeStateBadge({ state }: { state: CodeState }) {
  const { t } = useTranslation('packages');
  return (
    <Badge color={STATE_COLOR[state]} variant="light" data-testid="code-state">
      {t(`codes.states.${state}`)}
    </Badge>
  );
}

/** "3 used · 2 paid · 0 not paid · 0 locked", dimmed. */
export function CodeCountsText({ counts }: { counts: CodePackage['counts'] }) {
  const { t } = useTranslation('packages');
  return (
    <Text fz="xs" c="dimmed" data-testid="code-counts">
      {t('codes.countSummary', {
        used: formatNumber(counts.USED),
        paid: formatNumber(counts.PAID),
        notPaid: formatNumber(counts.NOT_PAID),
        locked: formatNumber(counts.LOCKED),
      })}
    </Text>
  );
}

/** A calendar day of the API (yyyy-MM-dd) as the product shows it (dd/MM/yyyy), with no time zone. */
export const dayText = (isoDay: string) => toDisplayDate(isoDay);
