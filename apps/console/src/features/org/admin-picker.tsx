import { useState } from 'react';
import { MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries } from '@tanstack/react-query';
import type { RoleCode, StaffList } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { staffListQuery, type StaffFilter } from '../staff/staff-api';

/** A person as a picker shows them; the detail answers of scopes and centers give these. */
export interface KnownUser {
  userId: string;
  fullName: string;
  email: string | null;
}

/** Candidates per search; enough to find anyone by typing a few letters of their name. */
const CANDIDATE_LIMIT = 50;

/** Which staff lists hold the roles an admin may have (contracts STAFF_LISTS). */
function listsFor(roles: readonly RoleCode[]): StaffList[] {
  const lists: StaffList[] = [];
  if (roles.includes('MHSC_ADMIN')) lists.push('mhscAdmin');
  if (roles.includes('SCOPE_ADMIN')) lists.push('scopeAdmin');
  if (roles.some((role) => role === 'ADMIN' || role === 'MAIN_ADMIN' || role === 'SUPPORT_ADMIN'))
    lists.push('employee');
  return lists;
}

const labelOf = (user: KnownUser) => (user.email ? `${user.fullName} · ${user.email}` : user.fullName);

/**
 * Active accounts holding one of `roles`, found by typing (server-side search over the staff lists),
 * plus the people already chosen, so a chosen name keeps its label while the search moves on.
 */
function useCandidates(search: string, roles: readonly RoleCode[], known: readonly KnownUser[]) {
  const [debounced] = useDebouncedValue(search, 300);
  const [seen, setSeen] = useState<Record<string, string>>({});
  const filter: StaffFilter = {
    page: 0,
    size: CANDIDATE_LIMIT,
    search: debounced,
    sortField: 'name',
    sortType: 'asc',
    status: 'ACTIVE',
    centerId: null,
  };
  const results = useQueries({ queries: listsFor(roles).map((list) => staffListQuery(list, filter)) });
  const labels: Record<string, string> = { ...seen };
  for (const user of known) labels[user.userId] = labelOf(user);
  for (const result of results)
    for (const row of result.data?.items ?? [])
      if (roles.includes(row.role))
        labels[row.id] = labelOf({ userId: row.id, fullName: row.fullName, email: row.email });
  return {
    labels,
    isLoading: results.some((result) => result.isFetching),
    hasFailed: results.some((result) => result.isError),
    remember: (ids: readonly string[]) => {
      setSeen((current) => ({ ...current, ...Object.fromEntries(ids.map((id) => [id, labels[id] ?? id])) }));
    },
  };
}

interface PickerProps {
  label: string;
  description?: string;
  roles: readonly RoleCode[];
  known: readonly KnownUser[];
  error?: string | undefined;
  /** People who may not be picked here (the main admin among the support admins). */
  exclude?: readonly string[];
  isRequired?: boolean;
}

export function AdminSelect({
  value,
  onChange,
  ...props
}: PickerProps & { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation('org');
  const [search, setSearch] = useState('');
  const candidates = useCandidates(search, props.roles, props.known);
  const data = Object.entries(candidates.labels)
    .filter(([id]) => !(props.exclude ?? []).includes(id))
    .map(([id, label]) => ({ value: id, label }));
  return (
    <Select
      label={props.label}
      description={props.description}
      placeholder={t('admins.searchPlaceholder')}
      data={data}
      value={value}
      onChange={(id) => {
        if (id !== null) candidates.remember([id]);
        onChange(id);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable={!props.isRequired}
      withAsterisk={props.isRequired}
      nothingFoundMessage={candidates.isLoading ? t('admins.searching') : t('admins.noMatch')}
      error={props.error ?? (candidates.hasFailed ? t('admins.loadFailed') : undefined)}
    />
  );
}

export function AdminMultiSelect({
  value,
  onChange,
  ...props
}: PickerProps & { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation('org');
  const [search, setSearch] = useState('');
  const candidates = useCandidates(search, props.roles, props.known);
  const data = Object.entries(candidates.labels)
    .filter(([id]) => !(props.exclude ?? []).includes(id))
    .map(([id, label]) => ({ value: id, label }));
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      placeholder={t('admins.searchPlaceholder')}
      data={data}
      value={value}
      onChange={(ids) => {
        candidates.remember(ids);
        onChange(ids);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      clearable
      nothingFoundMessage={candidates.isLoading ? t('admins.searching') : t('admins.noMatch')}
      error={props.error ?? (candidates.hasFailed ? t('admins.loadFailed') : undefined)}
    />
  );
}
