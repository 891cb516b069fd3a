import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LANGUAGES } from '@rpm/i18n';
import { changeLanguage, currentLanguage, isSupportedLanguage } from '../../i18n';

// Each language is named in itself ("Tiếng Việt"), so a reader of the other language can find it.
const LANGUAGE_LABEL_KEYS = { en: 'language.en', vi: 'language.vi' } as const;

/** en/vi switch; the choice is stored locally and sets <html lang> (see i18n.ts). */
export function LanguageSwitch({ size = 'xs' }: { size?: 'xs' | 'sm' }) {
  // useTranslation re-renders this control whenever the language changes, wherever it was switched.
  const { t } = useTranslation();
  const value = currentLanguage();
  const options = SUPPORTED_LANGUAGES.map((language) => ({
    value: language,
    label: t(LANGUAGE_LABEL_KEYS[language]),
  }));
  return (
    <SegmentedControl
      size={size}
      aria-label={t('language.label')}
      value={value}
      onChange={(next) => {
        if (isSupportedLanguage(next)) changeLanguage(next);
      }}
      data={options}
    />
  );
}
