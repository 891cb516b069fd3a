import {
  deviceBindSchema,
  deviceDetailSchema,
  deviceInputSchema,
  deviceListQuerySchema,
  deviceSummarySchema,
  pageOf,
  successEnvelope,
} from '@rpm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.js';
import { attachmentHeader, XLSX_CONTENT_TYPE } from '../../lib/xlsx.js';
import { exportDevices } from './export.js';
import { deviceEnvironmentOf, LIST_NOTE } from './route-support.js';
import {
  bindDevice,
  createDevice,
  deleteDevice,
  listDevices,
  listPatientDevices,
  readDevice,
  unbindDevice,
  updateDevice,
} from './service.js';

export { deviceHealthRoutes } from './health-routes.js';

const idParams = z.object({ id: z.uuid() });
const detailResponse = { 200: successEnvelope(deviceDetailSchema) };
/** Device management under /account (spec §2 device management; §4 device states). */
export const deviceAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const environmentOf = (request: FastifyRequest) => deviceEnvironmentOf(app, request);
  const tags = ['devices'];

  app.get(
    '/devices',
    {
      config: { access: 'device.view' },
      schema: {
        tags,
        summary: `Device list. ${LIST_NOTE}`,
        querystring: deviceListQuerySchema,
        response: { 200: successEnvelope(pageOf(deviceSummarySchema)) },
      },
    },
    async (request) => ok(await listDevices(environmentOf(request), request.query)),
  );

  app.get(
    '/devices/export',
    {
      config: { access: 'device.view' },
      schema: {
        tags,
        summary:
          'The device list as an .xlsx file (same filters and order as the list, every page); export.noData when nothing matches. Cells starting with = + - @ are escaped',
        querystring: deviceListQuerySchema,
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await exportDevices(
        environmentOf(request),
        request.query,
        request.language,
      );
      return reply
        .header('content-type', XLSX_CONTENT_TYPE)
        .header('content-disposition', attachmentHeader(fileName))
        .send(stream);
    },
  );

  app.get(
    '/devices/:id',
    {
      config: { access: 'device.view' },
      schema: { tags, summary: 'Device detail', params: idParams, response: detailResponse },
    },
    async (request) => ok(await readDevice(environmentOf(request), request.params.id)),
  );

  app.post(
    '/devices',
    {
      config: { access: 'device.create' },
      schema: {
        tags,
        summary:
          'Add a device (not activated, bound to nobody). device.unsupportedType, device.invalidMac, device.invalidImei; a MAC address or an IMEI is required; device.exists when the MAC, the IMEI or the serial number of that model is taken',
        body: deviceInputSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await createDevice(environmentOf(request), request.body)),
  );

  app.put(
    '/devices/:id',
    {
      config: { access: 'device.update' },
      schema: {
        tags,
        summary:
          'Edit a device that never connected (device.activated otherwise); the same checks as creating',
        params: idParams,
        body: deviceInputSchema,
        response: detailResponse,
      },
    },
    async (request) => ok(await updateDevice(environmentOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/devices/:id',
    {
      config: { access: 'device.delete' },
      schema: {
        tags,
        summary:
          'Delete a device that never connected and is bound to nobody (device.cannotDelete otherwise)',
        params: idParams,
        response: { 200: successEnvelope(z.null()) },
      },
    },
    async (request) => {
      await deleteDevice(environmentOf(request), request.params.id);
      return ok(null);
    },
  );

  app.put(
    '/devices/:id/bind',
    {
      config: { access: 'device.update' },
      schema: {
        tags,
        summary:
          'Bind a device to a patient the caller sees (patient.notFound otherwise); device.connectedByAnotherUser when bound to another patient. The account user name becomes the patient’s',
        params: idParams,
        body: deviceBindSchema,
        response: detailResponse,
      },
    },
    async (request) =>
      ok(await bindDevice(environmentOf(request), request.params.id, request.body.patientId)),
  );

  app.put(
    '/devices/:id/unbind',
    {
      config: { access: 'device.update' },
      schema: {
        tags,
        summary: 'Unbind a device from its patient',
        params: idParams,
        response: detailResponse,
      },
    },
    async (request) => ok(await unbindDevice(environmentOf(request), request.params.id)),
  );

  app.get(
    '/patients/:patientId/devices',
    {
      config: { access: 'user.view' },
      schema: {
        tags,
        summary: 'The devices bound to a patient the caller sees (patient.notFound otherwise), newest first',
        params: z.object({ patientId: z.uuid() }),
        response: { 200: successEnvelope(z.array(deviceSummarySchema)) },
      },
    },
    async (request) => ok(await listPatientDevices(environmentOf(request), request.params.patientId)),
  );
};
