/** What every paged list sends: the page, its size, and where a list has them, its order and search. */
export interface ListQueryFilter {
  page: number;
  size: number;
  sortField?: string;
  sortType?: string;
  search?: string;
}

export type ListQueryValue = string | number | boolean | null | undefined;

/**
 * The query string of one page of a list: page and size, the order when the filter has one, the
 * search trimmed (left out when empty), then each optional filter that is set (null, undefined and
 * '' are left out), in the order given.
 */
export function listQuery(filter: ListQueryFilter, optional: Record<string, ListQueryValue> = {}): string {
  const query = new URLSearchParams({ page: String(filter.page), size: String(filter.size) });
  if (filter.sortField !== undefined) query.set('sortField', filter.sortField);
  if (filter.sortType !== undefined) query.set('sortType', filter.sortType);
  const search = filter.search?.trim() ?? '';
  if (search !== '') query.set('search', search);
  for (const [name, value] of Object.entries(optional)) {
    if (value === null || value === undefined || value === '') continue;
    query.set(name, String(value));
  }
  return query.toString();
}
