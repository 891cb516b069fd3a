import {
  centerDeviceListQuerySchema,
  connectionHistoryItemSchema,
  connectionHistoryQuerySchema,
  deviceListQuerySchema,
  deviceSummarySchema,
  disconnectCountSchema,
  nameListSchema,
  pageOf,
  phoneAllQuerySchema,
  phoneHistoryItemSchema,
  phoneHistoryQuerySchema,
  requiredUsernameSchema,
  successEnvelope,
  usernameFilterSchema,
  areaOfRole,
  type RoleArea,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth, type AuthContext } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { ok } from '../../http/envelope.js';
import {
  listLatestPhones,
  listDeviceNames,
  listPhoneValues,
  searchConnectionHistory,
  searchPhoneHistory,
} from './history-service.js';
import { listCenterDevices } from './center-devices.js';
import { deviceEnvironmentOf, LIST_NOTE } from './route-support.js';
import { countDisconnectedDevices, listDevices, listDevicesOfUsername } from './service.js';

/**
 * A role-prefixed lookup (spec §7: admin, sadmin, cskh, operator, doctor; smadmin) is for the
 * roles of that console area holding device.view: its access is 'session' and this hook refuses
 * everyone else before anything is read. ROOT works in the super admin's area too.
 */
const requireArea = (area: RoleArea) => async (request: FastifyRequest) => {
  const auth: AuthContext = requireAuth(request);
  const callerArea = auth.role === 'ROOT' ? 'sadmin' : areaOfRole(auth.role);
  if (callerArea !== area || !auth.permissions.has('device.view'))
    throw new AppError('auth.permissionDenied');
};

/** Device, connection-history and phone-history calls under /health (spec §7 "Health prefix"). */
export const deviceHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest) => deviceEnvironmentOf(app, request);
  const tags = ['devices'];
  const config = { access: 'device.view' } as const;

  app.get(
    '/device-connection-history/searchByUsername',
    {
      config,
      schema: {
        tags,
        summary:
          'Connection history of an account (username) or of one device (deviceId): page, size, optional sortField (connectedAt|disconnectedAt|deviceName|model|status|appVersion|phoneName), sortType (asc|desc), search (device name, MAC, phone, app version), status (1, 0, -1, 2), start and end (connection time, ISO 8601), model',
        querystring: connectionHistoryQuerySchema,
        response: { 200: successEnvelope(pageOf(connectionHistoryItemSchema)) },
      },
    },
    async (request) => ok(await searchConnectionHistory(environmentOf(request), request.query)),
  );

  app.get(
    '/device/getUserDevicesByUsername',
    {
      config,
      schema: {
        tags,
        summary: 'The devices bound to an account (username: email, phone or patient code)',
        querystring: requiredUsernameSchema,
        response: { 200: successEnvelope(deviceSummarySchema.array()) },
      },
    },
    async (request) => ok(await listDevicesOfUsername(environmentOf(request), request.query.username)),
  );

  app.get(
    '/device/getDisconnectDeviceCount',
    {
      config,
      schema: {
        tags,
        summary: 'How many of the devices the caller sees are disconnected (status 0)',
        response: { 200: successEnvelope(disconnectCountSchema) },
      },
    },
    async (request) => ok(await countDisconnectedDevices(environmentOf(request))),
  );

  app.get(
    '/device-connection-history/getDeviceNameList',
    {
      config,
      schema: {
        tags,
        summary: 'Distinct device names in connection histories (of one account with username)',
        querystring: usernameFilterSchema,
        response: { 200: successEnvelope(nameListSchema) },
      },
    },
    async (request) => ok(await listDeviceNames(environmentOf(request), request.query.username)),
  );

  app.get(
    '/phone-history/searchByUsername',
    {
      config,
      schema: {
        tags,
        summary:
          'Phone history: page, size, optional username, search (account, phone, OS or app version), status (app status), sort (field,direction: recordedAt|phoneName|appVersion|status), phoneName, appVersion, start and end (ISO 8601)',
        querystring: phoneHistoryQuerySchema,
        response: { 200: successEnvelope(pageOf(phoneHistoryItemSchema)) },
      },
    },
    async (request) => ok(await searchPhoneHistory(environmentOf(request), request.query)),
  );

  for (const [url, column] of [
    ['/phone-history/getPhoneNameList', 'phoneName'],
    ['/phone-history/getAppVersionList', 'appVersion'],
  ] as const) {
    app.get(
      url,
      {
        config,
        schema: {
          tags,
          summary: `Distinct ${column === 'phoneName' ? 'phone names' : 'app versions'} in phone histories (of one account with username)`,
          querystring: usernameFilterSchema,
          response: { 200: successEnvelope(nameListSchema) },
        },
      },
      async (request) => ok(await listPhoneValues(environmentOf(request), column, request.query.username)),
    );
  }

  app.get(
    '/phone/get-all',
    {
      config,
      schema: {
        tags,
        summary: 'The latest phone of each account the caller sees (one account with username), paged',
        querystring: phoneAllQuerySchema,
        response: { 200: successEnvelope(pageOf(phoneHistoryItemSchema)) },
      },
    },
    async (request) => ok(await listLatestPhones(environmentOf(request), request.query)),
  );

  const areas = ['admin', 'sadmin', 'cskh', 'operator', 'doctor'] as const;
  for (const area of areas) {
    app.get(
      `/${area}/device`,
      {
        config: { access: 'session', ...(area === 'sadmin' ? { wholeTenant: true } : {}) },
        onRequest: requireArea(area),
        schema: {
          tags,
          summary: `Device lookup of the ${area} area (its roles holding device.view only). ${LIST_NOTE}`,
          querystring: deviceListQuerySchema,
          response: { 200: successEnvelope(pageOf(deviceSummarySchema)) },
        },
      },
      async (request) => ok(await listDevices(environmentOf(request), request.query)),
    );
  }

  app.get(
    '/smadmin/mhsc/device',
    {
      config: { access: 'session' },
      onRequest: requireArea('smadmin'),
      schema: {
        tags,
        summary: `Devices of the patients of one health center (mhscId, center.notFound when the caller cannot see it), optionally of one patient account (userId). Scope and health-center admins holding device.view only. ${LIST_NOTE}`,
        querystring: centerDeviceListQuerySchema,
        response: { 200: successEnvelope(pageOf(deviceSummarySchema)) },
      },
    },
    async (request) => ok(await listCenterDevices(environmentOf(request), request.query)),
  );
};
