import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OutboxDispatcher } from './dispatcher.js';
import { createEmailSender, createSmsProvider } from './providers.js';
import { createPushSender } from '../notifications/push.js';
import { createGateways, gatewayEndpointsOf, type Gateways } from './gateways/directory.js';

/** The outbox dispatcher as the rest of the server sees it. */
export interface Messaging {
  /** Call after a transaction that queued messages has committed: delivery starts at once. */
  kick(): void;
  /** Resolves when every message due now has had its attempt (tests, shutdown). */
  drain(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    messaging: Messaging;
    /** Each tenant's SMS and voice gateway. */
    gateways: Gateways;
  }
}

/** Starts and stops the outbox dispatcher with the server. */
const plugin: FastifyPluginAsyncZod = async (app) => {
  const email = createEmailSender(app.config);
  const sms = createSmsProvider(app.config);
  const push = createPushSender(app.config);
  const gateways = createGateways({
    system: app.database.system,
    secretsKey: app.config.secretsKey,
    endpoints: gatewayEndpointsOf(app.config),
    clock: app.clock,
    defaultSms: sms,
  });
  app.decorate('gateways', gateways);
  const dispatcher = new OutboxDispatcher(app.database, { email, smsFor: (tenantId) => gateways.smsFor(tenantId), push }, app.log, app.config.outboxPollMilliseconds);
  app.decorate('messaging', {
    kick: () => {
      dispatcher.kick();
    },
    drain: () => dispatcher.drain(),
  });
  app.addHook('onReady', async () => {
    dispatcher.start();
  });
  app.addHook('onClose', async () => {
    await dispatcher.stop();
    email.close();
    sms.close();
    push.close();
  });
};

// Fastify's documented opt-out of encapsulation (what fastify-plugin sets): `app.messaging` must
// be visible to the route plugins registered beside this one.
export const messagingPlugin = Object.assign(plugin, { [Symbol.for('skip-override')]: true });
