import { useState } from 'react';
import { ActionIcon, Button, Menu } from '@mantine/core';
import { LIMITS, type Scope } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { DotsIcon } from './org-icons';
import { ScopeConfirmDialog, type ScopeAction } from './scope-confirm-dialog';
import { ScopeFormDialog, type ScopeFormMode } from './scope-form-dialog';

/**
 * The changes one scope offers (add a child, edit, enable or disable, delete), as a menu on its
 * table row or as a button on its detail page; each opens its own dialog.
 */
export function ScopeActions({
  scope,
  variant = 'icon',
  onDeleted,
}: {
  scope: Scope;
  variant?: 'icon' | 'button';
  onDeleted?: () => void;
}) {
  const { t } = useTranslation('org');
  const [form, setForm] = useState<ScopeFormMode | null>(null);
  const [confirm, setConfirm] = useState<{ scope: Scope; action: ScopeAction } | null>(null);
  const isDeepest = scope.level >= LIMITS.scopeLevelMax;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          {variant === 'icon' ? (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={t('scopes.actionsFor', { name: scope.name })}
            >
              <DotsIcon />
            </ActionIcon>
          ) : (
            <Button variant="default">{t('scopes.actions')}</Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            disabled={isDeepest}
            title={isDeepest ? t('scopes.form.tooDeep', { max: LIMITS.scopeLevelMax }) : undefined}
            onClick={() => {
              setForm({ kind: 'create', parentId: scope.id });
            }}
          >
            {isDeepest ? t('scopes.addChildDeepest') : t('scopes.addChild')}
          </Menu.Item>
          <Menu.Item
            onClick={() => {
              setForm({ kind: 'edit', scope });
            }}
          >
            {t('scopes.edit')}
          </Menu.Item>
          <Menu.Item
            onClick={() => {
              setConfirm({ scope, action: scope.enabled ? 'disable' : 'enable' });
            }}
          >
            {scope.enabled ? t('scopes.disable') : t('scopes.enable')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="red"
            onClick={() => {
              setConfirm({ scope, action: 'delete' });
            }}
          >
            {t('scopes.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ScopeFormDialog
        mode={form}
        onClose={() => {
          setForm(null);
        }}
      />
      <ScopeConfirmDialog
        target={confirm}
        onClose={() => {
          setConfirm(null);
        }}
        {...(onDeleted ? { onDeleted } : {})}
      />
    </>
  );
}
