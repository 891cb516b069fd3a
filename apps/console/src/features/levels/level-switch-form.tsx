import { useState, type SubmitEvent } from 'react';
import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { levelSwitchSchema, type LevelOptions } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { levelKey, levelPlace, MAIN_LEVEL } from './level-label';
import { activeLevel, centersUnder, scopePath, scopesInTreeOrder } from './reach';
import { useApplyLevel } from './use-apply-level';

/** The dropdowns live inside the popover: a portal would count as a click outside and close it. */
const INLINE = { withinPortal: false } as const;

/**
 * Choose the role level, the tenant (platform staff) and a narrowing to one scope or health center.
 * The scopes and centers offered belong to the level and tenant in force; after choosing another
 * level or tenant they are unknown until it is applied, so narrowing waits for that.
 */
export function LevelSwitchForm({ options, onDone }: { options: LevelOptions; onDone: () => void }) {
  const { t } = useTranslation();
  const current = activeLevel(options);
  // The level's own place is not a narrowing: shown as "all" so clearing it changes nothing.
  const initialScope =
    options.current.scopeId === (current?.scope?.id ?? null) ? null : options.current.scopeId;
  const initialCenter =
    options.current.centerId === (current?.center?.id ?? null) ? null : options.current.centerId;
  const [level, setLevel] = useState(options.current.levelId ?? MAIN_LEVEL);
  const [tenantId, setTenantId] = useState(options.current.tenantId);
  const [scopeId, setScopeId] = useState<string | null>(initialScope);
  const [centerId, setCenterId] = useState<string | null>(initialCenter);
  const apply = useApplyLevel(onDone);

  const isOtherLevel =
    level !== (options.current.levelId ?? MAIN_LEVEL) || tenantId !== options.current.tenantId;
  const centers = centersUnder(options, scopeId);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = levelSwitchSchema.safeParse({
      levelId: level === MAIN_LEVEL ? null : level,
      tenantId: tenantId === options.current.tenantId ? undefined : tenantId,
      scopeId: isOtherLevel ? null : scopeId,
      centerId: isOtherLevel ? null : centerId,
    });
    if (parsed.success && !apply.isPending) apply.mutate(parsed.data);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('levels.formLabel')} data-testid="level-form">
      <Stack gap="sm">
        <Title order={2} fz="md">
          {t('levels.title')}
        </Title>
        {apply.isError ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(apply.error))}
          </Alert>
        ) : null}
        <Select
          label={t('levels.level')}
          data={options.levels.map((item) => {
            const role = item.customRole?.name ?? t(`roles.${item.role}`);
            const place = levelPlace(item);
            return { value: levelKey(item), label: place ? `${role} — ${place}` : role };
          })}
          value={level}
          onChange={(value) => {
            if (value !== null) setLevel(value);
          }}
          allowDeselect={false}
          comboboxProps={INLINE}
          disabled={options.levels.length < 2}
        />
        {options.tenants.length > 1 ? (
          <Select
            label={t('levels.tenant')}
            data={options.tenants.map((tenant) => ({ value: tenant.id, label: tenant.name }))}
            value={tenantId}
            onChange={(value) => {
              if (value !== null) setTenantId(value);
            }}
            searchable
            allowDeselect={false}
            nothingFoundMessage={t('levels.noMatch')}
            comboboxProps={INLINE}
          />
        ) : null}
        {isOtherLevel ? (
          <Text fz="sm" c="dimmed" data-testid="level-narrow-later">
            {t('levels.narrowAfterApply')}
          </Text>
        ) : (
          <>
            {options.scopes.length > 0 ? (
              <Select
                label={t('levels.scope')}
                placeholder={t('levels.allScopes')}
                data={scopesInTreeOrder(options.scopes).map((scope) => ({
                  value: scope.id,
                  label: scopePath(options.scopes, scope.id),
                }))}
                value={scopeId}
                onChange={(value) => {
                  setScopeId(value);
                  // A center outside the new scope would be refused: drop it.
                  if (
                    value !== null &&
                    !centersUnder(options, value).some((center) => center.id === centerId)
                  )
                    setCenterId(null);
                }}
                searchable
                clearable
                nothingFoundMessage={t('levels.noMatch')}
                comboboxProps={INLINE}
              />
            ) : null}
            <Select
              label={t('levels.center')}
              placeholder={t('levels.allCenters')}
              data={centers.map((center) => ({ value: center.id, label: center.name }))}
              value={centerId}
              onChange={setCenterId}
              searchable
              clearable
              nothingFoundMessage={t('levels.noMatch')}
              comboboxProps={INLINE}
              disabled={centers.length === 0}
            />
          </>
        )}
        <Group justify="space-between" mt="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setScopeId(null);
              setCenterId(null);
            }}
            disabled={isOtherLevel || (scopeId === null && centerId === null)}
          >
            {t('levels.clearNarrowing')}
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onDone}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={apply.isPending}>
              {t('levels.apply')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
