import { useState } from 'react';
import { Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useOrgReach } from '../levels/use-org-reach';
import { PlusIcon } from '../shell/icons';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { ScopeFormDialog, type ScopeFormMode } from './scope-form-dialog';
import { ScopeTable } from './scope-table';
import { ScopeTree } from './scope-tree';

/**
 * Scope management (spec §2, levels 1 to 5): the tree beside the table. Choosing a scope in the tree
 * lists its sub-scopes in the table; the chosen scope is in the address (?parent=) so it survives a
 * reload. Changes need a caller who sees the whole tenant; a scope admin reads their subtree.
 */
export function ScopesPage() {
  const { t } = useTranslation('org');
  usePageTitle(t('scopes.pageTitle'));
  const reach = useOrgReach();
  const [searchParams, setSearchParams] = useSearchParams();
  const parentId = searchParams.get('parent');
  const [form, setForm] = useState<ScopeFormMode | null>(null);
  const setParent = (id: string | null) => {
    setSearchParams(id === null ? {} : { parent: id }, { replace: true });
  };

  return (
    <Stack gap="lg" maw={1280}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Title order={1} fz={26}>
            {t('scopes.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('scopes.subtitle')}
          </Text>
        </Stack>
        {reach.isWholeTenant ? (
          <Button
            leftSection={<PlusIcon />}
            onClick={() => {
              setForm({ kind: 'create', parentId });
            }}
          >
            {parentId === null ? t('scopes.createRoot') : t('scopes.createChild')}
          </Button>
        ) : null}
      </Group>
      {reach.options.isPending ? <LoadingState /> : null}
      {reach.options.isError ? (
        <ErrorState
          error={reach.options.error}
          title={t('reach.loadFailed')}
          onRetry={() => void reach.options.refetch()}
        />
      ) : null}
      {reach.options.isSuccess ? (
        <Grid gap="lg" align="flex-start">
          <Grid.Col span={4}>
            <Paper withBorder radius="md" p="sm" data-testid="scope-tree">
              <Group justify="space-between" mb="xs" px={4}>
                <Text fw={600} fz="sm">
                  {t('scopes.tree.title')}
                </Text>
                {parentId !== null ? (
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    onClick={() => {
                      setParent(null);
                    }}
                  >
                    {t('scopes.tree.showAll')}
                  </Button>
                ) : null}
              </Group>
              <ScopeTree
                isWholeTenant={reach.isWholeTenant}
                selectedId={parentId}
                onSelect={(scope) => {
                  setParent(scope.id === parentId ? null : scope.id);
                }}
              />
            </Paper>
          </Grid.Col>
          <Grid.Col span={8}>
            <ScopeTable parentId={parentId} onParentChange={setParent} />
          </Grid.Col>
        </Grid>
      ) : null}
      <ScopeFormDialog
        mode={form}
        onClose={() => {
          setForm(null);
        }}
      />
    </Stack>
  );
}
