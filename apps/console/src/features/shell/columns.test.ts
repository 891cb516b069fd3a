import { describe, expect, it } from 'vitest';
import { ariaSortOf, exportTable, nextSort, sortMarkOf, type Column } from './columns';

interface Row {
  id: string;
  name: string;
  age: number | null;
}

type SortField = 'name' | 'age';

const name: Column<Row, SortField> = {
  id: 'name',
  header: 'Name',
  sortField: 'name',
  cell: (row) => row.name,
  export: { header: 'Full name', value: (row) => row.name },
};
const age: Column<Row, SortField> = {
  id: 'age',
  header: 'Age',
  sortField: 'age',
  cell: (row) => row.age,
  export: { header: 'Age', value: (row) => row.age },
};
const actions: Column<Row, SortField> = {
  id: 'actions',
  header: 'Actions',
  isHeaderHidden: true,
  cell: () => null,
};
const columns = [name, age, actions];

describe('nextSort', () => {
  it('sorts a newly chosen column ascending, whatever the direction before', () => {
    expect(nextSort<SortField>({ sortField: 'name', sortType: 'desc' }, 'age')).toEqual({
      sortField: 'age',
      sortType: 'asc',
    });
    expect(nextSort<SortField>({ sortField: 'name', sortType: 'asc' }, 'age')).toEqual({
      sortField: 'age',
      sortType: 'asc',
    });
  });

  it('flips the direction when the active column is chosen again', () => {
    expect(nextSort<SortField>({ sortField: 'age', sortType: 'asc' }, 'age').sortType).toBe('desc');
    expect(nextSort<SortField>({ sortField: 'age', sortType: 'desc' }, 'age').sortType).toBe('asc');
  });
});

describe('ariaSortOf', () => {
  it('names the direction on the active column and "none" on other sortable ones', () => {
    expect(ariaSortOf(name, { sortField: 'name', sortType: 'asc' })).toBe('ascending');
    expect(ariaSortOf(name, { sortField: 'name', sortType: 'desc' })).toBe('descending');
    expect(ariaSortOf(age, { sortField: 'name', sortType: 'asc' })).toBe('none');
  });

  it('leaves aria-sort off a column the server cannot sort by, and off a list without order', () => {
    expect(ariaSortOf(actions, { sortField: 'name', sortType: 'asc' })).toBeUndefined();
    expect(ariaSortOf(name, undefined)).toBeUndefined();
  });

  it('shows an arrow only on the active column', () => {
    expect(sortMarkOf('ascending')).toBe('▲');
    expect(sortMarkOf('descending')).toBe('▼');
    expect(sortMarkOf('none')).toBe('');
    expect(sortMarkOf(undefined)).toBe('');
  });
});

describe('exportTable', () => {
  it('writes the exporting columns in their order, with their own headers and plain values', () => {
    const sheet = exportTable(columns, [
      { id: 'a', name: 'Lan', age: 71 },
      { id: 'b', name: 'Minh', age: null },
    ]);
    expect(sheet.headers).toEqual(['Full name', 'Age']);
    expect(sheet.lines).toEqual([
      ['Lan', 71],
      ['Minh', null],
    ]);
  });

  it('writes only the headers when there are no rows, and nothing for columns without export', () => {
    expect(exportTable(columns, [])).toEqual({ headers: ['Full name', 'Age'], lines: [] });
    expect(exportTable([actions], [{ id: 'a', name: 'Lan', age: 1 }])).toEqual({
      headers: [],
      lines: [[]],
    });
  });
});
