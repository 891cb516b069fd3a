import {
  DEFAULT_LATE_DATA_HORIZON_MINUTES,
  displayUnit,
  fromCanonical,
  TENANT_BLOOD_GLUCOSE_UNITS,
  TENANT_SETTING_DEFAULTS,
  TENANT_THERMAL_UNITS,
  TENANT_UNIT_SYSTEMS,
  TENANT_URIC_ACID_UNITS,
  toCanonical,
  type Measure,
  type UnitPreferences,
  type UnitsUsed,
} from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import type { UnitChoices } from '../../http/access.js';
import { readTenantSettings } from '../tenants/store.js';

const pick = <T extends string>(allowed: readonly T[], value: string | null | undefined): T | undefined =>
  allowed.find((candidate) => candidate === value);

/** The account settings' unit codes as the conversion preferences of contracts vitals.ts. */
export function preferencesOf(units: UnitsUsed): UnitPreferences {
  return {
    unitSystem: units.unitSystem === 'imperial' ? 'IMPERIAL' : 'METRIC',
    thermalUnit: units.thermalUnit === 'F' ? 'FAHRENHEIT' : 'CELSIUS',
    glucoseUnit: units.bloodGlucoseUnit,
    uricAcidUnit: units.uricAcidUnit,
  };
}

type UnitSource = Partial<Record<keyof UnitsUsed, string | null | undefined>>;

/** Each unit from `own` when it is a valid choice, else from `fallback`. */
function unitsFrom(own: UnitSource, fallback: UnitsUsed): UnitsUsed {
  return {
    unitSystem: pick(TENANT_UNIT_SYSTEMS, own.unitSystem) ?? fallback.unitSystem,
    thermalUnit: pick(TENANT_THERMAL_UNITS, own.thermalUnit) ?? fallback.thermalUnit,
    bloodGlucoseUnit: pick(TENANT_BLOOD_GLUCOSE_UNITS, own.bloodGlucoseUnit) ?? fallback.bloodGlucoseUnit,
    uricAcidUnit: pick(TENANT_URIC_ACID_UNITS, own.uricAcidUnit) ?? fallback.uricAcidUnit,
  };
}

const DEFAULT_UNITS: UnitsUsed = unitsFrom(
  {
    unitSystem: TENANT_SETTING_DEFAULTS.UNIT_SYSTEM,
    thermalUnit: TENANT_SETTING_DEFAULTS.THERMAL_UNIT,
    bloodGlucoseUnit: TENANT_SETTING_DEFAULTS.BLOOD_GLUCOSE_UNIT,
    uricAcidUnit: TENANT_SETTING_DEFAULTS.ACID_URIC_UNIT,
  },
  { unitSystem: 'metric', thermalUnit: 'C', bloodGlucoseUnit: 'mg/dL', uricAcidUnit: 'umol/L' },
);

/** The tenant's units (settings UNIT_SYSTEM, THERMAL_UNIT, BLOOD_GLUCOSE_UNIT, ACID_URIC_UNIT). */
function tenantUnitsOf(settings: ReadonlyMap<string, string>): UnitsUsed {
  return unitsFrom(
    {
      unitSystem: settings.get('UNIT_SYSTEM'),
      thermalUnit: settings.get('THERMAL_UNIT'),
      bloodGlucoseUnit: settings.get('BLOOD_GLUCOSE_UNIT'),
      uricAcidUnit: settings.get('ACID_URIC_UNIT'),
    },
    DEFAULT_UNITS,
  );
}

/** The units a tenant's devices send and its users read values in (tenant settings, spec §3 units). */
export async function tenantUnits(database: Database, tenantId: string): Promise<UnitPreferences> {
  return preferencesOf(tenantUnitsOf(await readTenantSettings(database.system, tenantId)));
}

export interface IngestUnits {
  /** Device readings: the tenant's units. */
  device: UnitsUsed;
  /** Manual and photo (OCR) entry: the entering user's own units, each else the tenant's. */
  entered: UnitsUsed;
}

/** The tenant's late-data horizon in minutes (setting LATE_DATA_HORIZON_MINUTES, default 120). */
function lateHorizonOf(settings: ReadonlyMap<string, string>): number {
  const minutes = Number(settings.get('LATE_DATA_HORIZON_MINUTES'));
  return Number.isInteger(minutes) && minutes > 0 ? minutes : DEFAULT_LATE_DATA_HORIZON_MINUTES;
}

/**
 * What an ingestion call reads from settings: the units — the tenant's for devices; for what a
 * person enters, the entering user's account settings (users.unit_system, thermal_unit,
 * blood_glucose_unit, uric_acid_unit, as in account/preferences.ts, read with the session: the
 * request's AuthContext.unitChoices), each unit they left unset following the tenant — and the
 * tenant's late-data horizon. One statement: the tenant's settings.
 */
export async function ingestSettings(
  database: Database,
  auth: { tenantId: string; unitChoices: UnitChoices },
): Promise<{ units: IngestUnits; lateHorizonMinutes: number }> {
  const settings = await readTenantSettings(database.system, auth.tenantId);
  const device = tenantUnitsOf(settings);
  return {
    units: { device, entered: unitsFrom(auth.unitChoices, device) },
    lateHorizonMinutes: lateHorizonOf(settings),
  };
}

/** A value in the given units → canonical. */
export function canonicalOf(measure: Measure, value: number, units: UnitPreferences): number {
  return toCanonical(measure, value, displayUnit(measure, units));
}

/** A canonical value → the given units, rounded to what a person reads (4 significant decimals). */
export function displayOf(measure: Measure, value: number, units: UnitPreferences): number {
  return Math.round(fromCanonical(measure, value, displayUnit(measure, units)) * 10_000) / 10_000;
}
