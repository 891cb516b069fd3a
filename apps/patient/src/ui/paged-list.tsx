import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './error-message';
import { Alert } from './kit';

interface Page<T> {
  items: T[];
  total: number;
}

/**
 * A list read a page at a time (an infinite query of the API's pages): what shows while loading,
 * the error with a retry, the empty text, "n of total" while more remain, the items and a
 * "Load more" button. The caller puts it in its own section and renders each item as an <li>.
 */
export function PagedList<T>({
  list,
  empty,
  listClassName,
  itemKey,
  renderItem,
}: {
  list: UseInfiniteQueryResult<InfiniteData<Page<T>>>;
  empty: ReactNode;
  listClassName: string;
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
}) {
  const { t } = useTranslation('patient');
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  return (
    <>
      {list.isPending ? <p role="status">{t('loading')}</p> : null}
      {list.isError ? (
        <div className="paged-list-error">
          <Alert>{errorMessage(list.error)}</Alert>
          <button
            type="button"
            onClick={() => {
              void list.refetch();
            }}
          >
            {t('list.retry')}
          </button>
        </div>
      ) : null}
      {list.isSuccess && items.length === 0 ? (
        <p className="paged-list-empty" role="status">
          {empty}
        </p>
      ) : null}
      {items.length > 0 && total > items.length ? (
        <p className="hint" role="status">
          {t('list.shownOfTotal', { shown: items.length, total })}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className={listClassName}>
          {items.map((item) => (
            <Fragment key={itemKey(item)}>{renderItem(item)}</Fragment>
          ))}
        </ul>
      ) : null}
      {list.hasNextPage ? (
        <button type="button" className="load-more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? t('loading') : t('list.more')}
        </button>
      ) : null}
    </>
  );
}
