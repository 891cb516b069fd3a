import type { CenterDeviceListQuery } from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import { withCaller } from '../../db/caller.js';
import { healthCenters } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { recordDeviceRead, toSummary, type DeviceEnvironment, type DevicePage } from './service.js';
import * as store from './store.js';

/**
 * The smadmin health-center variant (spec §7): devices bound to the patients of one health center
 * the caller sees (center.notFound otherwise), optionally of one patient account (userId).
 */
export function listCenterDevices(
  environment: DeviceEnvironment,
  query: CenterDeviceListQuery,
): Promise<DevicePage> {
  return withCaller(environment.database, environment.auth, async (tx) => {
    const centers = await tx
      .select({ id: healthCenters.id })
      .from(healthCenters)
      .where(eq(healthCenters.id, query.mhscId))
      .limit(1);
    if (centers.length === 0) throw new AppError('center.notFound');
    const filter: store.DeviceFilter = {
      search: query.search,
      category: query.category,
      status: query.status,
      appStatus: query.appStatus,
      bound: query.bound,
      centerId: query.mhscId,
      patientUserId: query.userId,
    };
    const { items, total } = await store.listDevices(tx, filter, query);
    const page = items.map(toSummary);
    await recordDeviceRead(tx, environment, 'DEVICES_LISTED', page, { ...query, total });
    return { items: page, page: query.page, size: query.size, total };
  });
}
