import { describe, expect, it } from 'vitest';
import { listQuery } from './list-query';

describe('listQuery', () => {
  it('sends the page, its size and the order, then the trimmed search', () => {
    expect(
      listQuery({ page: 2, size: 20, sortField: 'created', sortType: 'desc', search: '  Lan Pham ' }),
    ).toBe('page=2&size=20&sortField=created&sortType=desc&search=Lan+Pham');
  });

  it('leaves out an empty or blank search, and an order the list does not have', () => {
    expect(listQuery({ page: 0, size: 10, search: '   ' })).toBe('page=0&size=10');
    expect(listQuery({ page: 0, size: 10, sortType: 'asc', search: '' })).toBe('page=0&size=10&sortType=asc');
  });

  it('adds each optional filter that is set, in the order given, and leaves out null, undefined and empty ones', () => {
    const query = listQuery(
      { page: 0, size: 10, search: 'x' },
      { status: 'OPEN', rating: 4, bound: false, kind: null, centerId: undefined, type: '', zero: 0 },
    );
    expect(query).toBe('page=0&size=10&search=x&status=OPEN&rating=4&bound=false&zero=0');
  });

  it('encodes what it sends', () => {
    expect(listQuery({ page: 0, size: 10 }, { from: '2026-01-01T00:00:00+07:00', name: 'a&b' })).toBe(
      'page=0&size=10&from=2026-01-01T00%3A00%3A00%2B07%3A00&name=a%26b',
    );
  });
});
