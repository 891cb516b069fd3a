import {
  displayUnit,
  fromCanonical,
  toCanonical,
  type ChemistryUnit,
  type Measure,
  type UnitPreferences,
} from '@rpm/contracts';
import type { Database } from '../../db/database.js';
import { readTenantSettings } from '../tenants/store.js';

const CHEMISTRY_UNITS: readonly string[] = ['mg/dL', 'mmol/L', 'umol/L'];
const chemistryUnitOf = (value: string | undefined, fallback: ChemistryUnit): ChemistryUnit =>
  value !== undefined && CHEMISTRY_UNITS.includes(value) ? (value as ChemistryUnit) : fallback;

/** The units a tenant's users enter and read values in (tenant settings, spec §3 units). */
export async function tenantUnits(database: Database, tenantId: string): Promise<UnitPreferences> {
  const settings = await readTenantSettings(database.system, tenantId);
  return {
    unitSystem: settings.get('UNIT_SYSTEM') === 'imperial' ? 'IMPERIAL' : 'METRIC',
    thermalUnit: settings.get('THERMAL_UNIT') === 'F' ? 'FAHRENHEIT' : 'CELSIUS',
    glucoseUnit: chemistryUnitOf(settings.get('BLOOD_GLUCOSE_UNIT'), 'mg/dL'),
    uricAcidUnit: chemistryUnitOf(settings.get('ACID_URIC_UNIT'), 'umol/L'),
  };
}

/** A value in the tenant's unit → canonical. */
export function canonicalOf(measure: Measure, value: number, units: UnitPreferences): number {
  return toCanonical(measure, value, displayUnit(measure, units));
}

/** A canonical value → the tenant's unit, rounded to what a person reads (4 significant decimals). */
export function displayOf(measure: Measure, value: number, units: UnitPreferences): number {
  return Math.round(fromCanonical(measure, value, displayUnit(measure, units)) * 10_000) / 10_000;
}
