import { useState } from 'react';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BLOOD_GLUCOSE_UNITS,
  TENANT_SETTING_DEFAULTS,
  THERMAL_UNITS,
  UNIT_SYSTEMS,
  URIC_ACID_UNITS,
  unitSettingsSchema,
  unitSettingsUpdateSchema,
  type UnitSettings,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { errorMessageFor } from '../../api/error-reaction';
import { translateKey } from '../../i18n';
import { messageText, notifySuccess } from '../../lib/notify';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';

type Own = UnitSettings['own'];
type UnitField = keyof Own;

/** Each unit: its choices and the tenant setting that applies when the user has no own choice. */
const UNITS: {
  field: UnitField;
  choices: readonly string[];
  setting: 'UNIT_SYSTEM' | 'THERMAL_UNIT' | 'BLOOD_GLUCOSE_UNIT' | 'ACID_URIC_UNIT';
}[] = [
  { field: 'unitSystem', choices: UNIT_SYSTEMS, setting: 'UNIT_SYSTEM' },
  { field: 'thermalUnit', choices: THERMAL_UNITS, setting: 'THERMAL_UNIT' },
  { field: 'bloodGlucoseUnit', choices: BLOOD_GLUCOSE_UNITS, setting: 'BLOOD_GLUCOSE_UNIT' },
  { field: 'uricAcidUnit', choices: URIC_ACID_UNITS, setting: 'ACID_URIC_UNIT' },
];

/** Words for the unit system and temperature; glucose and uric acid units read the same in every language. */
function unitLabel(field: UnitField, value: string): string {
  return field === 'unitSystem' || field === 'thermalUnit' ? translateKey(`units.values.${value}`) : value;
}

/** The select's value for "follow the organisation" (the API's null). */
const DEFAULT = 'default';

const unitSettingsQuery = (userId: string) =>
  queryOptions({
    queryKey: [SESSION_QUERY_ROOT, userId, 'unit-settings'],
    queryFn: ({ signal }) => api.get('/account/me/unit-settings', { schema: unitSettingsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

function UnitsForm({ settings }: { settings: UnitSettings }) {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const [own, setOwn] = useState<Own>(settings.own);
  // The organisation's value: what applies while the user follows it, else the tenant setting.
  const tenantValue = (unit: (typeof UNITS)[number]) =>
    settings.own[unit.field] === null
      ? settings.effective[unit.field]
      : (session.settings[unit.setting] ?? TENANT_SETTING_DEFAULTS[unit.setting]);

  const save = useMutation({
    mutationFn: (body: Own) => api.put('/account/me/unit-settings', body, { schema: unitSettingsSchema }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      queryClient.setQueryData(unitSettingsQuery(session.user.userId).queryKey, saved);
      setOwn(saved.own);
      notifySuccess(t('units.saved'));
    },
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = unitSettingsUpdateSchema.safeParse(own);
        if (parsed.success && !save.isPending) save.mutate(parsed.data);
      }}
      noValidate
      aria-label={t('units.formLabel')}
    >
      <Paper withBorder radius="md" p="lg" maw={880}>
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {t('units.intro')}
          </Text>
          {save.isError ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(save.error))}
            </Alert>
          ) : null}
          <SimpleGrid cols={2} spacing="lg">
            {UNITS.map((unit) => (
              <Stack key={unit.field} gap={4}>
                <Select
                  label={t(`units.fields.${unit.field}`)}
                  data={[
                    {
                      value: DEFAULT,
                      label: t('units.organisationDefault', {
                        value: unitLabel(unit.field, tenantValue(unit)),
                      }),
                    },
                    ...unit.choices.map((choice) => ({
                      value: choice,
                      label: unitLabel(unit.field, choice),
                    })),
                  ]}
                  value={own[unit.field] ?? DEFAULT}
                  onChange={(value) => {
                    setOwn((current) => ({
                      ...current,
                      [unit.field]: value === DEFAULT || value === null ? null : value,
                    }));
                  }}
                  allowDeselect={false}
                />
                <Text fz="xs" c="dimmed" data-testid={`effective-${unit.field}`}>
                  {t('units.applies', { value: unitLabel(unit.field, settings.effective[unit.field]) })}
                </Text>
              </Stack>
            ))}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** Unit settings (spec §2 account settings, §3 units): the user's own choice per unit, or the organisation's. */
export function UnitsTab() {
  const { t } = useTranslation();
  const session = useSession();
  const settings = useQuery(unitSettingsQuery(session.user.userId));
  if (settings.isPending) return <LoadingState />;
  if (settings.isError)
    return (
      <ErrorState
        error={settings.error}
        title={t('units.loadFailed')}
        onRetry={() => void settings.refetch()}
      />
    );
  return <UnitsForm key={JSON.stringify(settings.data.own)} settings={settings.data} />;
}
