import { useState } from 'react';
import { Button, Popover, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon, LayersIcon } from '../org/org-icons';
import { levelLabelParts } from './level-label';
import { LevelSwitchForm } from './level-switch-form';
import { levelOptionsQuery } from './levels-api';
import { hasLevelChoices } from './reach';

/**
 * The level-access switcher of the header (spec §2: role, tenant, scope, health center). Shown only
 * when there is something to choose; the button names the current choice compactly.
 */
export function LevelSwitcher() {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const options = useQuery(levelOptionsQuery());
  if (!options.data || !hasLevelChoices(options.data)) return null;

  const { level, tenant, place } = levelLabelParts(options.data);
  const role = level ? (level.customRole?.name ?? t(`roles.${level.role}`)) : '';
  const label = [role, tenant, place ?? t('levels.everywhere')].filter(Boolean).join(' · ');

  return (
    <Popover
      opened={isOpen}
      onChange={setIsOpen}
      position="bottom-end"
      width={380}
      shadow="md"
      withArrow
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <Button
          variant="default"
          size="sm"
          leftSection={<LayersIcon width={16} height={16} />}
          rightSection={<ChevronDownIcon width={14} height={14} />}
          onClick={() => {
            setIsOpen((open) => !open);
          }}
          aria-label={t('levels.buttonLabel', { current: label })}
          aria-expanded={isOpen}
          data-testid="level-switcher"
        >
          <Text fz="sm" truncate="end" maw={360} data-testid="level-current">
            {label}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {isOpen ? (
          <LevelSwitchForm
            options={options.data}
            onDone={() => {
              setIsOpen(false);
            }}
          />
        ) : null}
      </Popover.Dropdown>
    </Popover>
  );
}
