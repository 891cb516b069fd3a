import { Badge, Group, Text } from '@mantine/core';
import type { LicenseState, SpecialtyCode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

/** A doctor's specialties as chips (labels from the catalogue of spec §3). */
export function SpecialtyChips({
  specialties,
  max,
}: {
  specialties: readonly SpecialtyCode[];
  max?: number;
}) {
  const { t } = useTranslation('doctors');
  if (specialties.length === 0)
    return (
      <Text c="dimmed" fz="sm" span>
        —
      </Text>
    );
  const shown = max === undefined ? specialties : specialties.slice(0, max);
  return (
    <Group gap={4}>
      {shown.map((code) => (
        <Badge key={code} variant="light" color="indigo" tt="none" radius="sm">
          {t(`specialty.${code}`)}
        </Badge>
      ))}
      {shown.length < specialties.length ? (
        <Badge variant="outline" color="gray" tt="none" radius="sm">
          +{specialties.length - shown.length}
        </Badge>
      ) : null}
    </Group>
  );
}

/** Whether the doctor holds a valid license; an expired one is a warning (they cannot be assigned). */
export function LicenseBadge({ state, isShort = false }: { state: LicenseState; isShort?: boolean }) {
  const { t } = useTranslation('doctors');
  const color = state === 'VALID' ? 'teal' : state === 'EXPIRED' ? 'red' : 'gray';
  return (
    <Badge
      color={color}
      variant={state === 'EXPIRED' ? 'filled' : 'light'}
      tt="none"
      // A narrow table column must not cut the word short.
      style={{ minWidth: 'max-content' }}
      data-testid="license-badge"
    >
      {isShort ? t(`licenseBadge.${state}`) : t(`licenseState.${state}`)}
    </Badge>
  );
}
