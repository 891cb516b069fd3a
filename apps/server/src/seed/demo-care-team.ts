import type { TenantTransaction } from '../db/database.js';
import type { DemoTenantData } from './demo.js';

/** Demo doctor profiles, care teams and requests. */
export async function seedDemoCareTeam(_tx: TenantTransaction, _data: DemoTenantData): Promise<void> {
  // Seeded as the feature lands.
}
