import fastifyWebsocket from '@fastify/websocket';
import { LIVE_BEARER_PROTOCOL } from '@rpm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readSessionToken } from '../../http/access.js';
import { AppError } from '../../http/app-error.js';
import { resolveSession } from '../auth/sessions.js';
import { authoriseCallMessage } from '../schedules/video-service.js';
import { CallRelay } from './call-relay.js';
import { LiveConnection, type AuthoriseCall } from './connection.js';
import { EventHub } from './hub.js';

const HEARTBEAT_MILLISECONDS = 15_000;

/**
 * A browser's WebSocket cannot send an Authorization header: the patient app offers the
 * subprotocols `rpm.bearer, <access token>` instead (contracts LIVE_BEARER_PROTOCOL), and the
 * server answers with `rpm.bearer`. The token is then checked like a bearer header's.
 */
function tokenOfProtocols(header: string | undefined): string | undefined {
  const offered = (header ?? '').split(',').map((protocol) => protocol.trim());
  const index = offered.indexOf(LIVE_BEARER_PROTOCOL);
  const token = index === -1 ? '' : (offered[index + 1] ?? '');
  return token === '' ? undefined : token;
}

/** The live layer as the rest of the server (and tests) see it. */
export interface Realtime {
  hub: EventHub;
  /** Sockets open in this process. */
  connectionCount(): number;
  /** Runs the heartbeat and session check of every socket now (it also runs every 15 s). */
  checkConnections(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * `GET /ws`: the live channel (protocol in @rpm/contracts realtime.ts). The upgrade is refused
 * (401 envelope) without a valid session, read like every API call's: the console's httpOnly
 * cookie, or `Authorization: Bearer`. The socket then sees the caller's tenant and centers only.
 */
const plugin: FastifyPluginAsyncZod = async (app) => {
  const hub = new EventHub(app.database, app.log);
  const calls = new CallRelay(app.database, app.log);
  const authoriseCall: AuthoriseCall = async (auth, appointmentId, kind) => {
    const party = await authoriseCallMessage(app.database, app.clock, auth, appointmentId, kind);
    return { peerUserId: party.peerUserId };
  };
  const connections = new Set<LiveConnection>();
  const checkConnections = async () => {
    await Promise.all(
      [...connections].map((connection) =>
        connection.check().catch((error: unknown) => {
          app.log.warn({ err: error }, 'realtime: session check failed');
        }),
      ),
    );
  };
  app.decorate('realtime', { hub, connectionCount: () => connections.size, checkConnections });

  const heartbeat = setInterval(() => void checkConnections(), HEARTBEAT_MILLISECONDS);
  heartbeat.unref();
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const connection of connections) connection.close(1001, 'server stopping');
  });
  app.addHook('onClose', async () => {
    await hub.stop();
    await calls.stop();
  });

  await app.register(fastifyWebsocket, {
    options: {
      // A call's SDP offer is the largest message a client sends (contracts callSignalSchema).
      maxPayload: 64 * 1024,
      handleProtocols: (protocols) => (protocols.has(LIVE_BEARER_PROTOCOL) ? LIVE_BEARER_PROTOCOL : false),
    },
  });
  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        const token = readSessionToken(request) ?? tokenOfProtocols(request.headers['sec-websocket-protocol']);
        if (token === undefined) throw new AppError('auth.unauthorized');
        request.auth = await resolveSession(app.database, app.clock, token);
      },
    },
    (socket, request) => {
      if (request.auth === null) {
        socket.close(4401, 'unauthorized');
        return;
      }
      const connection = new LiveConnection(
        socket,
        request.auth,
        { database: app.database, clock: app.clock, hub, log: app.log, calls, authoriseCall },
        (closed) => {
          connections.delete(closed);
        },
      );
      connections.add(connection);
    },
  );
};

// Like the messaging plugin: `app.realtime` is visible beside the route plugins.
export const realtimePlugin = Object.assign(plugin, { [Symbol.for('skip-override')]: true });
