import type { ReactNode } from 'react';

/** The order a server-paged list asks for: one field the server sorts by, and the direction. */
export interface SortState<SortField extends string> {
  sortField: SortField;
  sortType: 'asc' | 'desc';
}

/** What one column puts in a spreadsheet: its heading and the plain value of a row. */
export interface ColumnExport<Row> {
  header: string;
  value: (row: Row) => string | number | null;
}

/**
 * One column of a list page, declared once: its header, how a row's cell looks, whether (and by
 * which server field) it sorts, how it lays out, and what it exports. The table, its sortable
 * headers and any client-side export are all drawn from the page's list of these.
 *
 *   const columns: Column<PatientRow, PatientSortField>[] = [
 *     { id: 'name', header: t('list.columns.name'), sortField: 'name', cell: (row) => row.fullName },
 *   ];
 */
export interface Column<Row, SortField extends string = string> {
  /** Stable within the list; React's key for the header and the cells. */
  id: string;
  /** The header's words, from the page's typed message key (`t('list.columns.name')`). */
  header: string;
  /** The header is read by screen readers only (an actions column). */
  isHeaderHidden?: boolean;
  cell: (row: Row) => ReactNode;
  /** The field the server orders by; a column with one has a sorting header button. */
  sortField?: SortField;
  /** Keeps the cell on one line (badges, dates) so it is never cut. */
  isNoWrap?: boolean;
  /** Codes, serials and phone numbers line up in a fixed-width font. */
  isMonospace?: boolean;
  align?: 'left' | 'center' | 'right';
  width?: number | string;
  /** Below this Mantine breakpoint the column is not shown (less important on narrow screens). */
  visibleFrom?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  /** The column's place in a client-side export; a column without one is left out of it. */
  export?: ColumnExport<Row>;
}

/** A second choice of the active column flips the direction; another column starts ascending. */
export function nextSort<SortField extends string>(
  current: SortState<SortField>,
  field: SortField,
): SortState<SortField> {
  return {
    sortField: field,
    sortType: current.sortField === field && current.sortType === 'asc' ? 'desc' : 'asc',
  };
}

/** The header's aria-sort: the active column says its direction, other sortable ones "none". */
export function ariaSortOf<SortField extends string>(
  column: Pick<Column<unknown, SortField>, 'sortField'>,
  sort: SortState<SortField> | undefined,
): 'ascending' | 'descending' | 'none' | undefined {
  if (column.sortField === undefined || sort === undefined) return undefined;
  if (column.sortField !== sort.sortField) return 'none';
  return sort.sortType === 'asc' ? 'ascending' : 'descending';
}

/** The arrow after an active header's words. */
export function sortMarkOf(ariaSort: ReturnType<typeof ariaSortOf>): string {
  if (ariaSort === 'ascending') return '▲';
  if (ariaSort === 'descending') return '▼';
  return '';
}

/** The sheet a client-side export writes: the exporting columns' headers, then one line a row. */
export function exportTable<Row>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
): { headers: string[]; lines: (string | number | null)[][] } {
  const exported = columns.flatMap((column) => (column.export === undefined ? [] : [column.export]));
  return {
    headers: exported.map((spec) => spec.header),
    lines: rows.map((row) => exported.map((spec) => spec.value(row))),
  };
}
