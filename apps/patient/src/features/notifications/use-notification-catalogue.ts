import { baseLanguageOf } from '@rpm/i18n/languages';
import { loadCatalogue } from '@rpm/i18n/load';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';

/**
 * The notifications' own words (types, channels, each kind's title and body) are the shared
 * `notifications` catalogue, also the console's: fetched when a notification screen or a mandatory
 * notice first shows, in the app's language (Canadian English reads en's). True once it is there.
 */
export function useNotificationCatalogue(): boolean {
  const { i18n } = useTranslation();
  const language = baseLanguageOf(currentLanguage());
  const [, setLoaded] = useState(0);
  const isReady = i18n.hasResourceBundle(language, 'notifications');
  useEffect(() => {
    if (isReady) return;
    let isLive = true;
    void loadCatalogue(language, 'notifications').then((catalogue) => {
      if (!i18n.hasResourceBundle(language, 'notifications')) i18n.addResourceBundle(language, 'notifications', catalogue);
      if (isLive) setLoaded((count) => count + 1);
    });
    return () => {
      isLive = false;
    };
  }, [i18n, isReady, language]);
  return isReady;
}
