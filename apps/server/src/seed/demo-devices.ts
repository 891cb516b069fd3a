import type { TenantTransaction } from '../db/database.js';
import type { DemoTenantData } from './demo.js';

/** Demo device connection and phone histories. */
export async function seedDemoDevices(_tx: TenantTransaction, _data: DemoTenantData): Promise<void> {
  // Seeded as the feature lands.
}
