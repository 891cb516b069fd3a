import { z } from 'zod';
import { defineTask } from '../jobs/registry.js';
import { EXPIRED_TASK, EXPIRING_TASK, runLifecycleStep } from './subscriptions.js';

const payloadSchema = z.object({ subscriptionId: z.uuid() });

/** A subscription's two timers: about to expire (7 days before its end), then expired. */
defineTask<Record<string, unknown>>(EXPIRING_TASK, async ({ tenantId, payload, database, clock }) => {
  const { subscriptionId } = payloadSchema.parse(payload);
  await database.withTenant(tenantId, (tx) => runLifecycleStep(tx, tenantId, subscriptionId, 'expiring', clock.now()));
});
defineTask<Record<string, unknown>>(EXPIRED_TASK, async ({ tenantId, payload, database, clock }) => {
  const { subscriptionId } = payloadSchema.parse(payload);
  await database.withTenant(tenantId, (tx) => runLifecycleStep(tx, tenantId, subscriptionId, 'expired', clock.now()));
});
