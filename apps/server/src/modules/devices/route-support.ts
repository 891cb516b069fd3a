import type { FastifyRequest } from 'fastify';
import { requireAuth } from '../../http/access.js';
import { auditContextOf } from '../../http/audit-context.js';
import type { DeviceEnvironment } from './service.js';

export const LIST_NOTE =
  'Paged (page from 0, size), searchable by IMEI, MAC, serial number or account (search), filtered by category (model), status (connection: 1, 0, -1, 2), appStatus and bound (true|false), sorted by sortField (created|model|serialNumber|macAddress|lastConnected|lastSync|status) and sortType (asc|desc). Devices bound to patients of centers the caller cannot see are not listed.';

export function deviceEnvironmentOf(
  app: { database: DeviceEnvironment['database']; clock: DeviceEnvironment['clock'] },
  request: FastifyRequest,
): DeviceEnvironment {
  return {
    database: app.database,
    clock: app.clock,
    auth: requireAuth(request),
    audit: auditContextOf(request),
  };
}
