import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { timeZoneChoices, type SettingFieldProps } from './tenant-settings-model';

/**
 * The tenant's time zone (setting TIME_ZONE): a searchable list of the runtime's IANA zones, the
 * fallback for the local days of patients whose account has no zone of its own.
 */
export function TimeZoneField({ value, onChange, error }: SettingFieldProps) {
  const { t } = useTranslation('tenants');
  return (
    <Select
      label={t('settings.TIME_ZONE')}
      description={t('settings.timeZoneHint')}
      data={timeZoneChoices(value)}
      value={value}
      onChange={(next) => {
        if (next) onChange(next);
      }}
      error={error}
      searchable
      nothingFoundMessage={t('settings.timeZoneNothingFound')}
      allowDeselect={false}
    />
  );
}
