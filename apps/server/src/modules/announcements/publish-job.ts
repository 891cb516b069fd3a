import { z } from 'zod';
import { defineTask } from '../jobs/registry.js';
import { PUBLISH_TASK, runPublishStep } from './service.js';

const payloadSchema = z.object({ announcementId: z.uuid() });

/** Publishes a scheduled announcement at its time, then notifies its audience batch by batch. */
defineTask<Record<string, unknown>>(PUBLISH_TASK, async ({ tenantId, payload, database, clock }) => {
  const { announcementId } = payloadSchema.parse(payload);
  await runPublishStep(database, clock, tenantId, announcementId);
});
