import { Box, Paper, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ariaSortOf, sortMarkOf, type Column, type SortState } from './columns';
import type { PageState } from './paged-list';
import { EmptyList, ErrorState, LoadingState, TablePager } from './query-states';

/** What a table needs of its list's state (usePagedList gives all of it). */
export interface TableListState<SortField extends string> {
  filter: PageState<SortField>;
  setPage: (page: number) => void;
  sortBy: (field: SortField) => void;
}

export interface DataTableTexts {
  loadFailed: string;
  emptyTitle: string;
  emptyHint?: string;
  noMatchTitle: string;
  noMatchHint?: string;
}

function HeaderCell<Row, SortField extends string>({
  column,
  sort,
  onSort,
}: {
  column: Column<Row, SortField>;
  sort: SortState<SortField>;
  onSort: (field: SortField) => void;
}) {
  const words =
    column.isHeaderHidden === true ? <VisuallyHidden>{column.header}</VisuallyHidden> : column.header;
  const ariaSort = ariaSortOf(column, sort);
  const { sortField } = column;
  return (
    <Table.Th aria-sort={ariaSort} ta={column.align} w={column.width} visibleFrom={column.visibleFrom}>
      {sortField === undefined ? (
        words
      ) : (
        // A button, so the order changes from the keyboard as from the mouse.
        <UnstyledButton
          onClick={() => {
            onSort(sortField);
          }}
          fw={600}
          fz="sm"
        >
          {words} {sortMarkOf(ariaSort)}
        </UnstyledButton>
      )}
    </Table.Th>
  );
}

/**
 * A server-paged list drawn from its column list: loading, error with retry, empty (with other
 * words when filters hide everything), the table with its sortable headers, and the pager. Rows of
 * a page being replaced are dimmed; a table wider than the screen scrolls inside its frame.
 */
export function DataTable<Row extends { id: string }, SortField extends string>({
  columns,
  query,
  list,
  label,
  testId,
  rowTestId,
  isFiltered,
  texts,
  minWidth,
}: {
  columns: readonly Column<Row, SortField>[];
  query: UseQueryResult<{ items: Row[]; total: number; isTotalExact?: boolean }>;
  list: TableListState<SortField>;
  /** The table's accessible name. */
  label: string;
  testId: string;
  rowTestId?: string;
  isFiltered: boolean;
  texts: DataTableTexts;
  /** Below this width the table scrolls sideways rather than squeeze its columns. */
  minWidth?: number;
}) {
  const { filter } = list;
  const emptyHint = isFiltered ? texts.noMatchHint : texts.emptyHint;
  const table = (items: Row[], isStale: boolean) => (
    <Table highlightOnHover verticalSpacing="sm" aria-label={label} data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <HeaderCell key={column.id} column={column} sort={filter} onSort={list.sortBy} />
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody style={{ opacity: isStale ? 0.6 : 1 }}>
        {items.map((row) => (
          <Table.Tr key={row.id} data-testid={rowTestId}>
            {columns.map((column) => (
              <Table.Td
                key={column.id}
                ta={column.align}
                ff={column.isMonospace === true ? 'monospace' : undefined}
                visibleFrom={column.visibleFrom}
                style={column.isNoWrap === true ? { whiteSpace: 'nowrap' } : undefined}
              >
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return (
    <Paper withBorder radius="md" p="md">
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? (
        <ErrorState error={query.error} title={texts.loadFailed} onRetry={() => void query.refetch()} />
      ) : null}
      {query.isSuccess && query.data.items.length === 0 ? (
        <EmptyList
          title={isFiltered ? texts.noMatchTitle : texts.emptyTitle}
          {...(emptyHint === undefined ? {} : { description: emptyHint })}
        />
      ) : null}
      {query.isSuccess && query.data.items.length > 0 ? (
        <>
          <Box style={{ overflowX: 'auto' }}>
            {minWidth === undefined ? (
              table(query.data.items, query.isPlaceholderData)
            ) : (
              <Table.ScrollContainer minWidth={minWidth}>
                {table(query.data.items, query.isPlaceholderData)}
              </Table.ScrollContainer>
            )}
          </Box>
          <TablePager
            page={filter.page}
            size={filter.size}
            total={query.data.total}
            isTotalExact={query.data.isTotalExact}
            onChange={list.setPage}
          />
        </>
      ) : null}
    </Paper>
  );
}
