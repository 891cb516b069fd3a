import { useState } from 'react';
import { ActionIcon, Badge, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LIMITS, type Scope, type ScopeNode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { ChevronDownIcon, ChevronRightIcon } from './org-icons';
import { callerScopeTreeQuery, scopeChildrenQuery } from './scopes-api';

interface TreeState {
  expanded: ReadonlySet<string>;
  toggle: (id: string) => void;
  selectedId: string | null;
  onSelect: (scope: Scope) => void;
}

/**
 * One scope of the tree: a toggle (only where children can exist: level 5 is the deepest), the
 * name (selects it) and its level. `children` undefined means "load them when expanded".
 */
function ScopeItem({ scope, children, state }: { scope: Scope; children?: ScopeNode[]; state: TreeState }) {
  const { t } = useTranslation('org');
  const canHaveChildren = children === undefined ? scope.level < LIMITS.scopeLevelMax : children.length > 0;
  const isExpanded = state.expanded.has(scope.id);
  const isSelected = state.selectedId === scope.id;
  return (
    <li
      role="treeitem"
      aria-level={scope.level}
      aria-expanded={canHaveChildren ? isExpanded : undefined}
      aria-selected={isSelected}
      aria-label={`${scope.name} ${t('scopes.levelShort', { level: scope.level })}`}
    >
      <Group
        gap={4}
        wrap="nowrap"
        py={2}
        px={4}
        bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
        style={{ borderRadius: 'var(--mantine-radius-sm)' }}
      >
        {canHaveChildren ? (
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            onClick={() => {
              state.toggle(scope.id);
            }}
            aria-label={t(isExpanded ? 'scopes.tree.collapse' : 'scopes.tree.expand', { name: scope.name })}
          >
            {isExpanded ? (
              <ChevronDownIcon width={14} height={14} />
            ) : (
              <ChevronRightIcon width={14} height={14} />
            )}
          </ActionIcon>
        ) : (
          <span style={{ width: 22, flex: 'none' }} />
        )}
        <UnstyledButton
          onClick={() => {
            state.onSelect(scope);
          }}
          style={{ flex: 1, minWidth: 0 }}
          data-testid="scope-tree-node"
        >
          <Text fz="sm" fw={isSelected ? 600 : 400} truncate="end" c={scope.enabled ? undefined : 'dimmed'}>
            {scope.name}
          </Text>
        </UnstyledButton>
        {/* Keeps the name and the level apart as words, as the item's name reads them. */}{' '}
        <Badge size="xs" variant="light" color={scope.enabled ? 'blue' : 'gray'}>
          {t('scopes.levelShort', { level: scope.level })}
        </Badge>
      </Group>
      {isExpanded ? (
        children === undefined ? (
          <LazyChildren parentId={scope.id} state={state} />
        ) : (
          <ScopeGroup scopes={children} state={state} />
        )
      ) : null}
    </li>
  );
}

function ScopeGroup({
  scopes,
  state,
  isRoot = false,
}: {
  scopes: (Scope | ScopeNode)[];
  state: TreeState;
  isRoot?: boolean;
}) {
  const { t } = useTranslation('org');
  return (
    <ul
      role={isRoot ? 'tree' : 'group'}
      aria-label={isRoot ? t('scopes.tree.label') : undefined}
      style={{ listStyle: 'none', margin: 0, paddingLeft: isRoot ? 0 : 18 }}
    >
      {scopes.map((scope) => (
        <ScopeItem
          key={scope.id}
          scope={scope}
          state={state}
          {...('children' in scope ? { children: scope.children } : {})}
        />
      ))}
    </ul>
  );
}

/** Children are asked for the first time a scope is opened, and cached like every other list. */
function LazyChildren({ parentId, state }: { parentId: string; state: TreeState }) {
  const { t } = useTranslation('org');
  const children = useQuery(scopeChildrenQuery(parentId));
  if (children.isPending)
    return (
      <Group gap="xs" pl={40} py={4} role="status">
        <Loader size="xs" />
        <Text fz="xs" c="dimmed">
          {t('scopes.tree.loading')}
        </Text>
      </Group>
    );
  if (children.isError)
    return (
      <ErrorState
        error={children.error}
        title={t('scopes.tree.loadFailed')}
        onRetry={() => void children.refetch()}
      />
    );
  if (children.data.length === 0)
    return (
      <Text fz="xs" c="dimmed" pl={44} py={2}>
        {t('scopes.tree.noChildren')}
      </Text>
    );
  return <ScopeGroup scopes={children.data} state={state} />;
}

/**
 * The scope hierarchy (levels 1 to 5) with expand and collapse. Callers who see the whole tenant
 * load it level by level; a scope admin gets their subtrees in one answer (the only call open to them).
 */
export function ScopeTree({
  isWholeTenant,
  selectedId,
  onSelect,
}: {
  isWholeTenant: boolean;
  selectedId: string | null;
  onSelect: (scope: Scope) => void;
}) {
  const { t } = useTranslation('org');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const roots = useQuery({ ...scopeChildrenQuery(null), enabled: isWholeTenant });
  const trees = useQuery({ ...callerScopeTreeQuery(), enabled: !isWholeTenant });
  const query = isWholeTenant ? roots : trees;
  const state: TreeState = {
    expanded,
    toggle: (id) => {
      setExpanded((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    selectedId,
    onSelect,
  };

  if (query.isPending) return <LoadingState />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        title={t('scopes.tree.loadFailed')}
        onRetry={() => void query.refetch()}
      />
    );
  if (query.data.length === 0)
    return <EmptyList title={t('scopes.tree.empty')} description={t('scopes.tree.emptyHint')} />;
  return isWholeTenant ? (
    <ScopeGroup scopes={roots.data ?? []} state={state} isRoot />
  ) : (
    <ScopeGroup scopes={trees.data ?? []} state={state} isRoot />
  );
}
