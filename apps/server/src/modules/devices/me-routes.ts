import {
  bindMyDeviceSchema,
  myDeviceFirmwareSchema,
  myDeviceIdSchema,
  myDeviceListSchema,
  myDeviceSchema,
  myDeviceSettingsSchema,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { bindMyDevice, listMyDevices, unbindMyDevice, updateMyDevice } from './me-service.js';
import { deviceEnvironmentOf } from './route-support.js';

const SELF_NOTE =
  'The calling patient’s own watches (patient sessions only: a staff account gets 404 health.noPatientProfile).';

/** The patient app's own watches under /health: bind, unbind, settings, firmware. */
export const deviceMeRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest) => deviceEnvironmentOf(app, request);
  const tags = ['devices'];

  app.get(
    '/me/devices',
    {
      config: { access: 'health.view' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Newest binding first, with connection status, last sync, firmware and settings. Audited`,
        response: { 200: successEnvelope(myDeviceListSchema) },
      },
    },
    async (request) => ok(await listMyDevices(environmentOf(request))),
  );

  app.post(
    '/me/devices',
    {
      // The patient's own session; a staff account has no record to bind to (checked by the service).
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Binds a watch of the tenant’s stock by model (V19, GT2, GT5, J2025E, J2025B) and serial number, typed or read from its QR code. Binding one’s own watch again changes nothing; a watch bound to another account is 409 device.connectedByAnotherUser; an unknown serial 404 device.notFound`,
        body: bindMyDeviceSchema,
        response: { 200: successEnvelope(myDeviceSchema) },
      },
    },
    async (request) => ok(await bindMyDevice(environmentOf(request), request.body)),
  );

  app.post(
    '/me/devices/unbind',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Unbinds one of them (deviceId); its settings are cleared. Another account’s watch is 404 device.notFound`,
        body: myDeviceIdSchema,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await unbindMyDevice(environmentOf(request), request.body.deviceId);
      return ok(null);
    },
  );

  app.post(
    '/me/devices/settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Saves one watch’s settings: night SpO2 detection (00:00 to 07:00) and fall detection`,
        body: myDeviceSettingsSchema,
        response: { 200: successEnvelope(myDeviceSchema) },
      },
    },
    async (request) =>
      ok(await updateMyDevice(environmentOf(request), request.body.deviceId, { settings: request.body.settings })),
  );

  app.post(
    '/me/devices/firmware',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: `${SELF_NOTE} Records the firmware version a watch runs after an upgrade from the app`,
        body: myDeviceFirmwareSchema,
        response: { 200: successEnvelope(myDeviceSchema) },
      },
    },
    async (request) =>
      ok(
        await updateMyDevice(environmentOf(request), request.body.deviceId, {
          firmwareVersion: request.body.firmwareVersion,
        }),
      ),
  );
};
