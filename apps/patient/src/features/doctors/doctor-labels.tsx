import { baseLanguageOf } from '@rpm/i18n/languages';
import { loadCatalogue } from '@rpm/i18n/load';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';

/**
 * The specialty, degree, role and request-status names are the console's (`doctors` namespace):
 * fetched when a doctors screen first shows, in the app's language. True once they are there.
 */
export function useDoctorLabels(): boolean {
  const { i18n } = useTranslation();
  const language = baseLanguageOf(currentLanguage());
  const [, setLoaded] = useState(0);
  const isReady = i18n.hasResourceBundle(language, 'doctors');
  useEffect(() => {
    if (isReady) return;
    let isLive = true;
    void loadCatalogue(language, 'doctors').then((catalogue) => {
      if (!i18n.hasResourceBundle(language, 'doctors')) i18n.addResourceBundle(language, 'doctors', catalogue);
      if (isLive) setLoaded((count) => count + 1);
    });
    return () => {
      isLive = false;
    };
  }, [i18n, isReady, language]);
  return isReady;
}

/** The rating as five stars, read out as a sentence. */
export function RatingStars({ average, count }: { average: number; count: number }) {
  const { t, i18n } = useTranslation('appDoctors');
  const value = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(average);
  const full = Math.round(average);
  return (
    <span className="doctor-rating">
      <span aria-hidden="true" className="doctor-stars">
        {'★'.repeat(full)}
        <span className="doctor-stars-empty">{'★'.repeat(5 - full)}</span>
      </span>
      <span>{count === 0 ? t('rating.none') : t('rating.value', { value, count })}</span>
    </span>
  );
}

export function dateText(isoDate: string, language: string): string {
  // A date-only value is a calendar day: shown as such, whatever the phone's time zone.
  const date = isoDate.length === 10 ? new Date(`${isoDate}T00:00:00Z`) : new Date(isoDate);
  return new Intl.DateTimeFormat(language, {
    dateStyle: 'medium',
    ...(isoDate.length === 10 ? { timeZone: 'UTC' } : {}),
  }).format(date);
}
