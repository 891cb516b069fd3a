import {
  Autocomplete,
  Button,
  Checkbox,
  ColorInput,
  Fieldset,
  Group,
  Input,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  DOSE_UNITS,
  FREQUENCY_CYCLES,
  MEAL_DEPENDENCES,
  MEDICINE_CATALOGUE,
  MEDICINE_FORMS,
  MEDICINE_MODES,
  MEDICINE_ROUTES,
  searchMedicineCatalogue,
  TIMES_OF_DAY,
  type CatalogueMedicine,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { CrossIcon } from '../shell/icons';
import type { MedicineValues, ScheduleValues } from './form-values';
import { ScheduleFields } from './schedule-fields';

/** Colours offered for a medicine (any other may be typed). */
const SWATCHES = [
  '#e03131',
  '#f08c00',
  '#fcc419',
  '#2f9e44',
  '#1971c2',
  '#7048e8',
  '#c2255c',
  '#868e96',
  '#ffffff',
];

/** The catalogue entry a medicine was picked from, if any. */
function catalogueEntry(catalogueId: string | null): CatalogueMedicine | undefined {
  return catalogueId === null ? undefined : MEDICINE_CATALOGUE.find((entry) => entry.id === catalogueId);
}

/**
 * One medicine of a prescription (spec §3 Medicine): picked from the catalogue (which fills its
 * route and form and offers its usual strengths) or typed freely, its dose in the §5 steps, how it
 * is taken and, on schedule, its reminders. Its fields are named by the contract's paths under
 * `path` ("medicines.1"), so each rule's message shows under its field.
 */
export function MedicineFields({
  medicine,
  number,
  path,
  errorOf,
  onChange,
  onScheduleChange,
  onRemove,
}: {
  medicine: MedicineValues;
  /** 1 for the first. */
  number: number;
  path: string;
  errorOf: (path: string) => string | undefined;
  onChange: (patch: Partial<MedicineValues>, fixes: readonly string[]) => void;
  onScheduleChange: (patch: Partial<ScheduleValues>, fixes: readonly string[]) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('carePlan');
  const picked = catalogueEntry(medicine.catalogueId);
  const found = searchMedicineCatalogue(medicine.name, 8);
  const field = (name: string) => `${path}.${name}`;
  const set = <K extends keyof MedicineValues>(
    name: K,
    value: MedicineValues[K],
    fixes: readonly string[] = [name],
  ) => {
    const patch: Partial<MedicineValues> = { [name]: value };
    onChange(patch, fixes.map(field));
  };
  const pick = (entry: CatalogueMedicine) => {
    onChange({ catalogueId: entry.id, name: entry.name, route: entry.route, form: entry.form }, [
      field('name'),
      field('route'),
      field('form'),
      field('catalogueId'),
    ]);
  };
  const title =
    medicine.name.trim() === ''
      ? t('medicine.legend', { number })
      : t('medicine.legendNamed', { number, name: medicine.name });
  const medicineError = errorOf(path) ?? errorOf(field('schedule'));
  return (
    <Fieldset
      legend={
        <Group gap="xs" wrap="nowrap">
          <Text fz="sm" fw={600} component="span">
            {title}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            leftSection={<CrossIcon width={12} height={12} />}
            aria-label={t('medicine.remove', { number })}
            onClick={onRemove}
          >
            {t('medicine.removeShort')}
          </Button>
        </Group>
      }
      aria-label={t('medicine.legend', { number })}
      radius="md"
      data-testid="medicine-fields"
    >
      <Stack gap="md">
        {medicineError === undefined ? null : <Input.Error role="alert">{medicineError}</Input.Error>}
        <SimpleGrid cols={4} spacing="md">
          <Autocomplete
            label={t('medicine.name')}
            description={t('medicine.nameHint')}
            value={medicine.name}
            data={found.map((entry) => entry.name)}
            // The catalogue search already chose and ordered (by name, word start or ATC code).
            filter={({ options }) => options}
            renderOption={({ option }) => {
              const entry = found.find((candidate) => candidate.name === option.value);
              return (
                <Stack gap={0}>
                  <Text fz="sm">{option.value}</Text>
                  {entry === undefined ? null : (
                    <Text fz="xs" c="dimmed">
                      {`${entry.id} · ${t(`route.${entry.route}`)} · ${t(`medicineForm.${entry.form}`)} · ${entry.strengths.join(', ')}`}
                    </Text>
                  )}
                </Stack>
              );
            }}
            onChange={(name) => {
              // Typed away from the entry picked: free text, no longer that catalogue medicine.
              const keepsEntry = picked?.name === name;
              onChange({ name, catalogueId: keepsEntry ? medicine.catalogueId : null }, [field('name')]);
            }}
            onOptionSubmit={(name) => {
              const entry = found.find((candidate) => candidate.name === name);
              if (entry !== undefined) pick(entry);
            }}
            error={errorOf(field('name'))}
            maxLength={200}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
            style={{ gridColumn: 'span 2' }}
          />
          <Autocomplete
            label={t('medicine.strength')}
            description={picked === undefined ? t('medicine.strengthHint') : t('medicine.strengthUsual')}
            placeholder={picked?.strengths[0] ?? '500 mg'}
            value={medicine.strength}
            data={[...(picked?.strengths ?? [])]}
            onChange={(strength) => {
              set('strength', strength, ['strength', 'name']);
            }}
            error={errorOf(field('strength'))}
            maxLength={60}
            comboboxProps={{ withinPortal: true }}
          />
          <ColorInput
            label={t('medicine.colour')}
            description={t('medicine.colourHint')}
            format="hex"
            swatches={SWATCHES}
            swatchesPerRow={9}
            withEyeDropper={false}
            value={medicine.color}
            onChange={(color) => {
              set('color', color);
            }}
            error={errorOf(field('color'))}
            popoverProps={{ withinPortal: true }}
          />
          <TextInput
            label={t('medicine.dose')}
            placeholder={t('medicine.dosePlaceholder')}
            inputMode="decimal"
            value={medicine.dose}
            onChange={(event) => {
              set('dose', event.currentTarget.value);
            }}
            error={errorOf(field('dose'))}
            withAsterisk
          />
          <Select
            label={t('medicine.doseUnit')}
            data={DOSE_UNITS.map((unit) => ({ value: unit, label: t(`doseUnit.${unit}`) }))}
            value={medicine.doseUnit}
            onChange={(value) => {
              const unit = DOSE_UNITS.find((candidate) => candidate === value);
              if (unit !== undefined) set('doseUnit', unit);
            }}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          <NumberInput
            label={t('medicine.quantity')}
            value={medicine.quantity}
            min={1}
            max={10_000}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            onChange={(value) => {
              set('quantity', typeof value === 'number' ? value : '');
            }}
            error={errorOf(field('quantity'))}
          />
          <Radio.Group
            label={t('medicine.mode')}
            value={medicine.mode}
            onChange={(value) => {
              const mode = MEDICINE_MODES.find((candidate) => candidate === value);
              if (mode !== undefined) onChange({ mode }, [field('mode'), field('schedule')]);
            }}
            withAsterisk
          >
            <Group gap="md" mt={8}>
              {MEDICINE_MODES.map((mode) => (
                <Radio key={mode} value={mode} label={t(`mode.${mode}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Select
            label={t('medicine.route')}
            data={MEDICINE_ROUTES.map((route) => ({ value: route, label: t(`route.${route}`) }))}
            value={medicine.route}
            onChange={(value) => {
              set('route', MEDICINE_ROUTES.find((candidate) => candidate === value) ?? null);
            }}
            error={errorOf(field('route'))}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('medicine.form')}
            data={MEDICINE_FORMS.map((form) => ({ value: form, label: t(`medicineForm.${form}`) }))}
            value={medicine.form}
            onChange={(value) => {
              set('form', MEDICINE_FORMS.find((candidate) => candidate === value) ?? null);
            }}
            error={errorOf(field('form'))}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('medicine.frequency')}
            data={FREQUENCY_CYCLES.map((cycle) => ({ value: cycle, label: t(`frequency.${cycle}`) }))}
            value={medicine.frequencyCycle}
            onChange={(value) => {
              const cycle = FREQUENCY_CYCLES.find((candidate) => candidate === value);
              if (cycle !== undefined) set('frequencyCycle', cycle);
            }}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('medicine.meal')}
            data={MEAL_DEPENDENCES.map((meal) => ({ value: meal, label: t(`meal.${meal}`) }))}
            value={medicine.meal}
            onChange={(value) => {
              const meal = MEAL_DEPENDENCES.find((candidate) => candidate === value);
              if (meal !== undefined) set('meal', meal);
            }}
            allowDeselect={false}
            withAsterisk
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Checkbox.Group
          label={t('medicine.timesOfDay')}
          value={medicine.timesOfDay}
          onChange={(chosen) => {
            set(
              'timesOfDay',
              TIMES_OF_DAY.filter((time) => chosen.includes(time)),
            );
          }}
          error={errorOf(field('timesOfDay'))}
        >
          <Group gap="md" mt={6}>
            {TIMES_OF_DAY.map((time) => (
              <Checkbox key={time} value={time} label={t(`timeOfDay.${time}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <SimpleGrid cols={3} spacing="md">
          <Textarea
            label={t('medicine.instructions')}
            value={medicine.instructions}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={1000}
            onChange={(event) => {
              set('instructions', event.currentTarget.value);
            }}
            error={errorOf(field('instructions'))}
          />
          <Textarea
            label={t('medicine.sideEffects')}
            value={medicine.sideEffects}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={1000}
            onChange={(event) => {
              set('sideEffects', event.currentTarget.value);
            }}
            error={errorOf(field('sideEffects'))}
          />
          <Textarea
            label={t('medicine.note')}
            value={medicine.note}
            autosize
            minRows={2}
            maxRows={6}
            maxLength={1000}
            onChange={(event) => {
              set('note', event.currentTarget.value);
            }}
            error={errorOf(field('note'))}
          />
        </SimpleGrid>
        {medicine.mode === 'ON_SCHEDULE' ? (
          <ScheduleFields
            schedule={medicine.schedule}
            path={field('schedule')}
            medicineName={medicine.name.trim() === '' ? t('medicine.legend', { number }) : medicine.name}
            errorOf={errorOf}
            onChange={onScheduleChange}
          />
        ) : (
          <Text fz="sm" c="dimmed" data-testid="on-demand-note">
            {t('words.onDemand')}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
