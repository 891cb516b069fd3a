import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_LANGUAGES, type AppLanguage } from '@rpm/i18n/languages';
import { changeLanguage, currentLanguage } from '../../i18n';

export function LanguageSelect() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="language">
      <label htmlFor={id} className="visually-hidden">{t('language.label')}</label>
      <select
        id={id}
        value={currentLanguage()}
        onChange={(event) => { void changeLanguage(event.target.value as AppLanguage); }}
      >
        {APP_LANGUAGES.map((language) => (
          <option key={language} value={language}>{t(`language.${language}`)}</option>
        ))}
      </select>
    </div>
  );
}
