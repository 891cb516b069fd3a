import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTyping, parseDisplayDate, toDisplayDate } from '../../lib/format';

/** A date typed as dd/MM/yyyy (spec §9), digits only; the slashes appear by themselves. */
export function DateField({
  label,
  description,
  value,
  error,
  onChange,
  isRequired = false,
  autoComplete,
  width,
}: {
  label: string;
  description?: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  isRequired?: boolean;
  autoComplete?: string;
  width?: number;
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
      w={width}
    />
  );
}

/**
 * A list's day filter typed as dd/MM/yyyy: hands the ISO day (yyyy-MM-dd) up once the date is
 * whole and real, null while it is empty or unfinished, and keeps what is being typed meanwhile.
 */
export function DayFilterField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string | null;
  onChange: (isoDay: string | null) => void;
}) {
  const [typed, setTyped] = useState(() => toDisplayDate(value));
  // A filter cleared or set from outside (a reset, the address) shows as such.
  const shown = value !== null && parseDisplayDate(typed) !== value ? toDisplayDate(value) : typed;
  return (
    <DateField
      label={label}
      value={shown}
      error={undefined}
      width={130}
      onChange={(text) => {
        setTyped(text);
        const day = parseDisplayDate(text);
        if (day !== value) onChange(day);
      }}
    />
  );
}
