import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';

/** Shows its children once the patient's units are known; loading and failure (with a retry) until then. */
export function UnitsGate<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  const { t } = useTranslation('appEntry');
  if (query.isPending) return <p className="loading" role="status">{t('loading')}</p>;
  if (query.isError)
    return (
      <>
        <Alert>{errorMessage(query.error)}</Alert>
        <button type="button" onClick={() => { void query.refetch(); }}>{t('retry')}</button>
      </>
    );
  return <>{children(query.data)}</>;
}
