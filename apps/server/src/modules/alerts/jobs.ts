import { defineTask } from '../jobs/registry.js';
import { createLocalCallProvider } from '../messaging/providers.js';
import { placeQueuedCall } from './calls.js';
import { PLACE_CALL_TASK } from './delivery.js';
import {
  HIGH_RISK_TIMEOUT_TASK,
  runHighRiskTimeout,
  runSosKpiCheck,
  runTicketKpiCheck,
  SOS_KPI_TASK,
} from './escalation.js';
import { TICKET_KPI_TASK } from './records.js';
import { runStatusSettle, STATUS_SETTLE_TASK } from '../vitals/status-engine.js';

/**
 * The alerting module's durable timers, registered with the job runner: the high-risk
 * confirmation window, the SOS and ticket KPI deadlines, placing queued voice calls, and the
 * status come-down window. Each
 * handler is idempotent (a job may run again after a crash).
 */
defineTask<{ alertId: string }>(HIGH_RISK_TIMEOUT_TASK, async (context) => {
  await runHighRiskTimeout(context, context.payload);
});
defineTask<{ sosCaseId: string }>(SOS_KPI_TASK, async (context) => {
  await runSosKpiCheck(context, context.payload);
});
defineTask<{ ticketId: string }>(TICKET_KPI_TASK, async (context) => {
  await runTicketKpiCheck(context, context.payload);
});
// The status lifecycle's come-down window (contracts status-lifecycle.ts), one job per patient.
defineTask<{ patientId: string }>(STATUS_SETTLE_TASK, async (context) => {
  await runStatusSettle(context, context.payload);
});
defineTask<{ callId: string }>(PLACE_CALL_TASK, async (context) => {
  const provider = context.gateways === undefined ? createLocalCallProvider(context.clock) : await context.gateways.callsFor(context.tenantId);
  await placeQueuedCall(context, context.payload, provider);
});
