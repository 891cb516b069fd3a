import { useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { nextSort, type SortState } from './columns';

/** The paging and ordering every server-paged list sends (pages are 0-based like the API's). */
export interface PageState<SortField extends string> extends SortState<SortField> {
  page: number;
  size: number;
}

/**
 * The state of one server-paged list: a debounced search box, the filters, the page and the
 * order. Changing the search, a filter or the order starts again at the first page.
 *
 *   const list = usePagedList({ page: 0, size: 20, sortField: 'name', sortType: 'asc', status: null });
 *   const rows = useQuery(patientListQuery({ ...list.filter, search: list.debouncedSearch }));
 */
export function usePagedList<SortField extends string, Filter extends PageState<SortField>>(initial: Filter) {
  const [search, setSearchText] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [filter, setFilter] = useState<Filter>(initial);
  const update = (change: Partial<Filter>) => {
    setFilter((current) => ({ ...current, page: 0, ...change }));
  };
  return {
    search,
    debouncedSearch,
    filter,
    setSearch: (text: string) => {
      setSearchText(text);
      update({});
    },
    /** Sets filters and goes back to the first page. */
    update,
    setPage: (page: number) => {
      setFilter((current) => ({ ...current, page }));
    },
    /** A second click on the active column flips the direction. */
    sortBy: (field: SortField) => {
      update(nextSort(filter, field) as Partial<Filter>);
    },
  };
}
