import { useState, type ReactNode } from 'react';
import { Box, Paper, Table, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import { EmptyList, ErrorState, LoadingState, TablePager } from './query-states';

/** The paging and ordering every server-paged list sends (pages are 0-based like the API's). */
export interface PageState<SortField extends string> {
  page: number;
  size: number;
  sortField: SortField;
  sortType: 'asc' | 'desc';
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
      update({
        sortField: field,
        sortType: filter.sortField === field && filter.sortType === 'asc' ? 'desc' : 'asc',
      } as Partial<Filter>);
    },
  };
}

/** A column header that sorts: a button for keyboard and mouse, aria-sort for screen readers. */
export function SortHeader<SortField extends string>({
  field,
  sort,
  onSort,
  children,
}: {
  field: SortField;
  sort: Pick<PageState<SortField>, 'sortField' | 'sortType'>;
  onSort: (field: SortField) => void;
  children: ReactNode;
}) {
  const isActive = sort.sortField === field;
  return (
    <Table.Th aria-sort={isActive ? (sort.sortType === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        onClick={() => {
          onSort(field);
        }}
        fw={600}
        fz="sm"
      >
        {children} {isActive ? (sort.sortType === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * The frame around a server-paged table: loading, error with retry, empty (with a different text
 * when filters hide everything), the table, and the pager. `children` renders the table itself for
 * the loaded page; rows of a page being replaced are dimmed.
 */
export function PagedTableFrame<Item>({
  query,
  page,
  size,
  onPage,
  isFiltered,
  texts,
  children,
  emptyAction,
}: {
  query: UseQueryResult<{ items: Item[]; total: number }>;
  page: number;
  size: number;
  onPage: (page: number) => void;
  isFiltered: boolean;
  texts: {
    loadFailed: string;
    emptyTitle: string;
    emptyHint?: string;
    noMatchTitle: string;
    noMatchHint?: string;
  };
  children: (items: Item[], isStale: boolean) => ReactNode;
  emptyAction?: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md">
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? (
        <ErrorState error={query.error} title={texts.loadFailed} onRetry={() => void query.refetch()} />
      ) : null}
      {query.isSuccess && query.data.items.length === 0 ? (
        <EmptyList
          title={isFiltered ? texts.noMatchTitle : texts.emptyTitle}
          {...((isFiltered ? texts.noMatchHint : texts.emptyHint) === undefined
            ? {}
            : { description: (isFiltered ? texts.noMatchHint : texts.emptyHint) ?? '' })}
          action={isFiltered ? undefined : emptyAction}
        />
      ) : null}
      {query.isSuccess && query.data.items.length > 0 ? (
        <>
          {/* A table wider than the screen scrolls inside its frame, not the whole page. */}
          <Box style={{ overflowX: 'auto' }}>{children(query.data.items, query.isPlaceholderData)}</Box>
          <TablePager page={page} size={size} total={query.data.total} onChange={onPage} />
        </>
      ) : null}
    </Paper>
  );
}
