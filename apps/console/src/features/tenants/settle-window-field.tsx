import { NumberInput } from '@mantine/core';
import { STATUS_SETTLE_MINUTES_RANGE } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import type { SettingFieldProps } from './tenant-settings-model';

/**
 * The come-down window (alert settings `statusSettleMinutes`, docs/status-lifecycle.md): how long
 * readings must stay within a lower level, with no SOS case open, before a status comes down by
 * itself. Whole minutes within the server's bounds; the text stays as typed until it is checked.
 */
export function SettleWindowField({ value, onChange, error }: SettingFieldProps) {
  const { t } = useTranslation('tenants');
  const [min, max] = STATUS_SETTLE_MINUTES_RANGE;
  return (
    <NumberInput
      label={t('settings.statusSettleMinutes')}
      description={t('settings.settleHint', { min, max })}
      value={value}
      onChange={(next) => {
        onChange(String(next));
      }}
      min={min}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      rightSection={t('settings.minutesUnit')}
      rightSectionWidth={56}
      error={error}
      data-testid="settle-window"
    />
  );
}
