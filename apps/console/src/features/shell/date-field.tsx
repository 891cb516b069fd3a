import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTyping } from '../../lib/format';

/** A date typed as dd/MM/yyyy (spec §9), digits only; the slashes appear by themselves. */
export function DateField({
  label,
  description,
  value,
  error,
  onChange,
  isRequired = false,
  autoComplete,
}: {
  label: string;
  description?: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  isRequired?: boolean;
  autoComplete?: string;
}) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={t('profile.datePlaceholder')}
      inputMode="numeric"
      maxLength={10}
      value={value}
      onChange={(event) => {
        onChange(formatDateTyping(event.currentTarget.value));
      }}
      error={error}
      autoComplete={autoComplete}
      withAsterisk={isRequired}
    />
  );
}
