import { useState } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { NO_DATA_WINDOW } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import type { SettingFieldProps } from './tenant-settings-model';

const CUSTOM = 'custom';
const PRESETS: readonly string[] = NO_DATA_WINDOW.presets.map(String);

/**
 * The no-data window (tenant setting NO_DATA_ALERT_MINUTES): 15, 30 or 60 minutes, or a custom
 * number of minutes typed beside the choice. The value stays the setting's text; the form checks
 * it with the contract's schema before saving.
 */
export function NoDataWindowField({ value, onChange, error }: SettingFieldProps) {
  const { t } = useTranslation('tenants');
  const [isCustom, setIsCustom] = useState(!PRESETS.includes(value));
  const choice = isCustom ? CUSTOM : value;
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap">
      <Select
        flex={1}
        label={t('settings.NO_DATA_ALERT_MINUTES')}
        description={t('settings.noDataHint')}
        data={[
          ...PRESETS.map((minutes) => ({ value: minutes, label: t('settings.noDataMinutes', { minutes }) })),
          { value: CUSTOM, label: t('settings.noDataCustom') },
        ]}
        value={choice}
        onChange={(next) => {
          if (!next) return;
          setIsCustom(next === CUSTOM);
          if (next !== CUSTOM) onChange(next);
        }}
        error={isCustom ? undefined : error}
        allowDeselect={false}
      />
      {isCustom && (
        <TextInput
          w={120}
          label={t('settings.noDataCustomMinutes')}
          description={t('settings.noDataCustomRange', { min: NO_DATA_WINDOW.minMinutes, max: NO_DATA_WINDOW.maxMinutes })}
          inputMode="numeric"
          value={value}
          onChange={(event) => {
            onChange(event.currentTarget.value.trim());
          }}
          error={error}
        />
      )}
    </Group>
  );
}
