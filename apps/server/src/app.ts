import { gatewayCallbackRoutes } from './modules/messaging/gateways/routes.js';
import { paymentCallbackRoutes, paymentConfigRoutes } from './modules/payments/routes.js';
import { announcementManageRoutes, announcementReadRoutes } from './modules/announcements/routes.js';
import { notificationCollectorRoutes, notificationRoutes, pushRoutes } from './modules/notifications/routes.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { pickLanguage } from '@rpm/i18n';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { uuidv7 } from 'uuidv7';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { systemClock, type Clock } from './lib/clock.js';
import { installAccessControl, isApiPath, type API_PREFIXES } from './http/access.js';
import { installReadYourWrites } from './http/read-your-writes.js';
import { sendError } from './http/envelope.js';
import { installErrorHandler } from './http/error-handler.js';
import { installOriginCheck } from './http/request-origin.js';
import { installRequestLog } from './http/request-log.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { installSecurityHeaders, sendConsoleIndex } from './http/security-headers.js';
import { alertAccountRoutes, alertHealthRoutes } from './modules/alerts/routes.js';
import { accountRoutes, manageAccountRoutes } from './modules/account/routes.js';
import { deviceAccountRoutes, deviceHealthRoutes } from './modules/devices/routes.js';
import { vitalsCollectorRoutes, vitalsHealthRoutes } from './modules/vitals/routes.js';
import { doctorAccountRoutes } from './modules/doctors/routes.js';
import { importAccountRoutes } from './modules/imports/routes.js';
import { medicalRecordMeRoutes } from './modules/patients/medical-records-routes.js';
import { patientAccountRoutes } from './modules/patients/routes.js';
import { appointmentRoutes } from './modules/schedules/appointment-routes.js';
import { myAppointmentRoutes } from './modules/schedules/my-appointment-routes.js';
import { scheduleReportRoutes } from './modules/schedules/report-routes.js';
import { scheduleRoutes } from './modules/schedules/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { levelRoutes } from './modules/levels/routes.js';
import { messagingPlugin } from './modules/messaging/plugin.js';
import { realtimePlugin } from './modules/realtime/plugin.js';
import { orgAccountRoutes, orgManageRoutes } from './modules/org/routes.js';
import { staffAccountRoutes, staffManageRoutes } from './modules/staff/routes.js';
import { trialRequestAccountRoutes, trialRequestManageRoutes } from './modules/trial-requests/routes.js';
import { roleRoutes } from './modules/roles/routes.js';
import { verificationAccountRoutes, verificationAuthRoutes } from './modules/verification/routes.js';
import { resolveSession } from './modules/auth/sessions.js';
import { systemRoutes } from './modules/system/routes.js';
import { accountTenantRoutes, manageTenantRoutes } from './modules/tenants/routes.js';
import { vitalsMeRoutes } from './modules/vitals/me-routes.js';
import { vitalsOcrRoutes } from './modules/vitals/ocr-routes.js';
import { sosRecordingRoutes } from './modules/alerts/recording-routes.js';
import { deviceMeRoutes } from './modules/devices/me-routes.js';
import { sportMeRoutes } from './modules/vitals/sport-routes.js';
import { followerMeRoutes } from './modules/followers/me-routes.js';
import { subUserAccountRoutes, subUserMeRoutes } from './modules/followers/sub-user-routes.js';
import { carePlanRoutes } from './modules/care-plan/routes.js';
import { doctorMeRoutes } from './modules/doctors/me-routes.js';
import { feedbackAccountRoutes, feedbackMeRoutes } from './modules/feedback/routes.js';
import { reviewAccountRoutes, reviewMeRoutes } from './modules/reviews/routes.js';
import { codePackageAccountRoutes, packageAccountRoutes, packageMeRoutes } from './modules/packages/routes.js';
import { orderAccountRoutes, orderMeRoutes } from './modules/orders/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    clock: Clock;
    isShuttingDown: boolean;
  }
}

/**
 * The API's six prefixes (spec §7) and the route plugins of each domain mounted under them.
 * A new domain adds its plugin here; unknown paths under a prefix answer the 404 envelope.
 */
const API_MODULES: Record<(typeof API_PREFIXES)[number], FastifyPluginAsyncZod[]> = {
  '/auth': [authRoutes, verificationAuthRoutes, paymentConfigRoutes],
  '/account': [
    accountTenantRoutes,
    accountRoutes,
    verificationAccountRoutes,
    roleRoutes,
    orgAccountRoutes,
    staffAccountRoutes,
    levelRoutes,
    trialRequestAccountRoutes,
    patientAccountRoutes,
    doctorAccountRoutes,
    scheduleRoutes,
    scheduleReportRoutes,
    appointmentRoutes,
    deviceAccountRoutes,
    importAccountRoutes,
    alertAccountRoutes,
    subUserAccountRoutes,
    feedbackAccountRoutes,
    reviewAccountRoutes,
    packageAccountRoutes,
    codePackageAccountRoutes,
    orderAccountRoutes,
  ],
  '/manage': [manageTenantRoutes, manageAccountRoutes, orgManageRoutes, staffManageRoutes, trialRequestManageRoutes, announcementManageRoutes],
  '/health': [
    deviceHealthRoutes,
    vitalsHealthRoutes,
    alertHealthRoutes,
    vitalsMeRoutes,
    sosRecordingRoutes,
    deviceMeRoutes,
    sportMeRoutes,
    followerMeRoutes,
    subUserMeRoutes,
    doctorMeRoutes,
    carePlanRoutes,
    medicalRecordMeRoutes,
    myAppointmentRoutes,
    feedbackMeRoutes,
    reviewMeRoutes,
    packageMeRoutes,
    orderMeRoutes,
  ],
  '/notification': [notificationRoutes, pushRoutes, announcementReadRoutes],
  '/collector': [vitalsCollectorRoutes, vitalsOcrRoutes, notificationCollectorRoutes, gatewayCallbackRoutes, paymentCallbackRoutes],
};

/** Where the server serves the patient app (apps/patient, built with this base). */
export const PATIENT_APP_PREFIX = '/app/';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Defaults to the system clock; tests pass a ManualClock. */
  clock?: Clock;
  /** Shared with the rest of the process; tests pass a silent one. */
  logger?: FastifyBaseLogger;
}

export async function buildApp({ config, database, clock = systemClock, logger }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: { level: config.logLevel } }),
    // A caller's own request id is kept when it is well formed, so traces join across services.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : uuidv7();
    },
    bodyLimit: 1024 * 1024,
    // Signed tokens ride in some paths (the sandbox payment page's): longer than the default 100.
    routerOptions: { maxParamLength: 512 },
    // Per-request lines go out at debug, with a summary a minute at info (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // request.ip is the X-Forwarded-For client only for requests from a listed proxy (TRUST_PROXY).
    trustProxy: config.trustProxy.length === 0 ? false : config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkEveryResponse: config.environment !== 'production' }));
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('clock', clock);
  app.decorate('isShuttingDown', false);
  app.decorateRequest('language', 'en');

  // Language first, so that every later failure (including 401s) is answered in it.
  app.addHook('onRequest', async (request, reply) => {
    request.language = pickLanguage(request.headers['accept-language']);
    reply.header('x-request-id', request.id);
  });
  installRequestLog(app);
  installSecurityHeaders(app);

  installErrorHandler(app);
  await app.register(fastifyCookie);
  installOriginCheck(app);
  installAccessControl(app, (token) => resolveSession(database, clock, token));
  installReadYourWrites(app, database, config.replicaMaxLagMilliseconds);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Remote patient monitoring API',
        description:
          'Every response is an envelope: `{ resultCode: 200, data }` on success, `{ resultCode: 500, code, message, fieldErrors?, requestId }` on failure. Send `Accept-Language: en|vi` for localized messages.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'rpm_session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  await app.register(systemRoutes);
  await app.register(messagingPlugin);
  await app.register(realtimePlugin);
  for (const [prefix, plugins] of Object.entries(API_MODULES)) {
    for (const plugin of plugins) await app.register(plugin, { prefix });
  }

  const consoleDir = config.consoleDir ?? path.resolve(import.meta.dirname, '../../console/dist');
  const hasConsole = existsSync(path.join(consoleDir, 'index.html'));
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      // index.html goes out through the not-found handler below, with a fresh CSP nonce. The
      // build's own records (.vite/manifest.json: every module's source path) are not for browsers.
      index: false,
      allowedPath: (pathName: string) =>
        pathName !== '/index.html' && !pathName.endsWith('/') && !pathName.startsWith('/.vite/'),
      setHeaders: (reply: FastifyReply, filePath: string) => {
        // Built assets carry a content hash in their name; index.html must always be fresh.
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(`console not built (${consoleDir}); run "npm run build" to serve it`);
  }

  // The patient app (apps/patient), an installable web app under /app/: the same headers, and its
  // index.html with a fresh CSP nonce like the console's.
  const patientDir = path.resolve(consoleDir, '../../patient/dist');
  const hasPatientApp = existsSync(path.join(patientDir, 'index.html'));
  if (hasPatientApp) {
    await app.register(fastifyStatic, {
      root: patientDir,
      prefix: PATIENT_APP_PREFIX,
      decorateReply: false,
      index: false,
      allowedPath: (pathName: string) =>
        pathName !== '/index.html' && !pathName.endsWith('/') && !pathName.startsWith('/.vite/'),
      setHeaders: (reply: FastifyReply, filePath: string) => {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/app', { config: { access: 'public' } }, (_request, reply) => reply.redirect(PATIENT_APP_PREFIX));
  }

  app.setNotFoundHandler(async (request, reply) => {
    // A built file that is not there (a tab still running the previous release asks for a chunk
    // the deploy replaced) is a 404, so the console's error page offers a reload; an HTML page
    // in its place would not load as a script either, only later and less clearly.
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !request.url.startsWith('/docs') &&
      !/^\/assets\/[^?#]/.test(request.url);
    if (hasPatientApp && isPageRequest && request.url.startsWith(PATIENT_APP_PREFIX)) {
      // The app's own routes (login, home…): the app decides what to show. Its built files that
      // are not there are 404s, like the console's.
      if (/^\/app\/assets\/[^?#]/.test(request.url)) return sendError(request, reply, 'common.routeNotFound');
      return sendConsoleIndex(patientDir, reply);
    }
    if (hasConsole && isPageRequest) {
      // Client-side routes: the console decides what to show, including its own 404 page.
      return sendConsoleIndex(consoleDir, reply);
    }
    return sendError(request, reply, 'common.routeNotFound');
  });

  return app;
}
