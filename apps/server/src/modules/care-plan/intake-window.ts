import { INTAKE_WINDOW } from '@rpm/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { SystemStore } from '../../db/database.js';
import { tenantSettings } from '../../db/schema.js';

/** A stored INTAKE_WINDOW_MINUTES, or the default when it is missing or out of its range. */
export function intakeWindowMinutesOf(stored: string | undefined): number {
  const value = Number(stored);
  return stored !== undefined &&
    Number.isInteger(value) &&
    value >= INTAKE_WINDOW.minMinutes &&
    value <= INTAKE_WINDOW.maxMinutes
    ? value
    : INTAKE_WINDOW.defaultMinutes;
}

/** The dose window in minutes of every listed tenant (tenant setting INTAKE_WINDOW_MINUTES), in one query. */
export async function intakeWindows(system: SystemStore, tenantIds: string[]): Promise<Map<string, number>> {
  const rows =
    tenantIds.length === 0
      ? []
      : await system
          .select({ tenantId: tenantSettings.tenantId, value: tenantSettings.value })
          .from(tenantSettings)
          .where(
            and(eq(tenantSettings.key, 'INTAKE_WINDOW_MINUTES'), inArray(tenantSettings.tenantId, tenantIds)),
          );
  const stored = new Map(rows.map((row) => [row.tenantId, row.value]));
  return new Map(tenantIds.map((tenantId) => [tenantId, intakeWindowMinutesOf(stored.get(tenantId))]));
}

/** One tenant's dose window in minutes. */
export async function intakeWindowOf(system: SystemStore, tenantId: string): Promise<number> {
  return (await intakeWindows(system, [tenantId])).get(tenantId) ?? INTAKE_WINDOW.defaultMinutes;
}
