import { Select, TextInput } from '@mantine/core';
import { SearchIcon } from './icons';

/** The search box over a list; the list searches (debounced) and starts again at its first page. */
export function ListSearchField({
  list,
  label,
  placeholder,
  width,
}: {
  list: { search: string; setSearch: (text: string) => void };
  label: string;
  placeholder: string;
  width: number;
}) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<SearchIcon />}
      value={list.search}
      onChange={(event) => {
        list.setSearch(event.currentTarget.value);
      }}
      w={width}
    />
  );
}

interface FilterLabels {
  label: string;
  placeholder: string;
  width: number;
  /** Said when a typed search matches no option. */
  nothingFound?: string;
}

/** A searchable filter on one record of a list (a health center, a doctor); cleared, it is null. */
export function RecordFilter<Item extends { id: string }>({
  items,
  nameOf,
  value,
  onChange,
  label,
  placeholder,
  width,
  nothingFound,
}: FilterLabels & {
  items: readonly Item[];
  nameOf: (item: Item) => string;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={items.map((item) => ({ value: item.id, label: nameOf(item) }))}
      value={value}
      onChange={onChange}
      searchable
      clearable
      nothingFoundMessage={nothingFound}
      w={width}
    />
  );
}

/**
 * A filter on one of a fixed set of values (a status, a kind), each shown in words; clearing it
 * shows every value again (null).
 */
export function ValueFilter<Value extends string>({
  values,
  labelOf,
  value,
  onChange,
  label,
  placeholder,
  width,
  isSearchable = false,
  nothingFound,
}: FilterLabels & {
  values: readonly Value[];
  labelOf: (value: Value) => string;
  value: Value | null;
  onChange: (value: Value | null) => void;
  isSearchable?: boolean;
}) {
  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={values.map((option) => ({ value: option, label: labelOf(option) }))}
      value={value}
      onChange={(chosen) => {
        onChange(values.find((option) => option === chosen) ?? null);
      }}
      searchable={isSearchable}
      nothingFoundMessage={nothingFound}
      clearable
      w={width}
    />
  );
}
