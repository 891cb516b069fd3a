import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** Sets the browser tab title to "<page> · <product>", in the current language. */
export function usePageTitle(pageTitle: string): void {
  const { t } = useTranslation();
  useDocumentTitle(t('app.documentTitle', { page: pageTitle }));
}
