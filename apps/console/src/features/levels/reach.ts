import { ROLE_PLACEMENT, type LevelOptions, type StaffLevel } from '@rpm/contracts';

type ScopeOption = LevelOptions['scopes'][number];
type CenterOption = LevelOptions['centers'][number];

/** The level the session acts at now (the main level has id null). */
export function activeLevel(options: LevelOptions): StaffLevel | undefined {
  return options.levels.find((level) => level.id === options.current.levelId);
}

/** Mirrors the server's rule (auth/levels.ts): which levels see every center of the tenant. */
export function isTenantWideLevel(level: StaffLevel): boolean {
  const placement = ROLE_PLACEMENT[level.role];
  if (placement === 'platform' || placement === 'tenant') return true;
  return placement === 'tenantOrCenter' && level.scope === null && level.center === null;
}

/**
 * Whether the session sees the whole acting tenant: a tenant-wide level not narrowed to a scope or
 * center. Only such callers may use the /sadmin scope and center calls; others get 403 there, so
 * the screens pick their calls (and offer their actions) by this.
 */
export function seesWholeTenant(options: LevelOptions): boolean {
  const level = activeLevel(options);
  if (level === undefined || !isTenantWideLevel(level)) return false;
  return (
    options.current.scopeId === (level.scope?.id ?? null) &&
    options.current.centerId === (level.center?.id ?? null)
  );
}

/** The switcher is shown only when it offers something other than what is already chosen. */
export function hasLevelChoices(options: LevelOptions): boolean {
  return (
    options.levels.length > 1 ||
    options.tenants.length > 1 ||
    options.scopes.length > 0 ||
    options.centers.length > 1
  );
}

/** A scope and every scope below it, by the parent links of the options. */
export function scopeSubtree(scopes: readonly ScopeOption[], rootId: string): Set<string> {
  const found = new Set([rootId]);
  let isGrowing = true;
  while (isGrowing) {
    isGrowing = false;
    for (const scope of scopes) {
      if (scope.parentId !== null && found.has(scope.parentId) && !found.has(scope.id)) {
        found.add(scope.id);
        isGrowing = true;
      }
    }
  }
  return found;
}

/** The centers of a scope's subtree (all centers when no scope is chosen). */
export function centersUnder(
  options: Pick<LevelOptions, 'scopes' | 'centers'>,
  scopeId: string | null,
): CenterOption[] {
  if (scopeId === null) return options.centers;
  const subtree = scopeSubtree(options.scopes, scopeId);
  return options.centers.filter((center) => center.scopeId !== null && subtree.has(center.scopeId));
}

/** "Vietnam › Ho Chi Minh City › District 1": where a scope sits, for select labels. */
export function scopePath(scopes: readonly ScopeOption[], id: string): string {
  const names: string[] = [];
  const seen = new Set<string>();
  let current = scopes.find((scope) => scope.id === id);
  // `seen` guards against a cycle in bad data; the server prevents cycles, the label must not hang.
  while (current !== undefined && !seen.has(current.id)) {
    seen.add(current.id);
    names.unshift(current.name);
    const parentId = current.parentId;
    current = parentId === null ? undefined : scopes.find((scope) => scope.id === parentId);
  }
  return names.join(' › ');
}

/** Scopes in tree order (each parent before its children), for selects that read like the tree. */
export function scopesInTreeOrder(scopes: readonly ScopeOption[]): ScopeOption[] {
  const ids = new Set(scopes.map((scope) => scope.id));
  const ordered: ScopeOption[] = [];
  const visit = (parentId: string | null) => {
    const children = scopes
      .filter((scope) =>
        parentId === null ? scope.parentId === null || !ids.has(scope.parentId) : scope.parentId === parentId,
      )
      .sort((left, right) => left.name.localeCompare(right.name));
    for (const child of children) {
      ordered.push(child);
      visit(child.id);
    }
  };
  visit(null);
  return ordered;
}
