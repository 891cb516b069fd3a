import {
  TENANT_CONNECTION_KINDS,
  type RoleCode,
  type SslMode,
  type TenantConnectionKind,
  type TenantConnections,
  type TenantConnectionsInput,
  type TenantConnectionType,
} from '@rpm/contracts';
import { isApiError } from '../../api/api-error';

export interface ConnectionValues {
  host: string;
  /** As typed: NumberInput gives '' while the field is empty. */
  port: number | string;
  database: string;
  user: string;
  /** Never filled from the server: stored passwords are not returned, so it is typed for each test or save. */
  password: string;
  sslMode: SslMode;
}

export interface ConnectionsValues {
  connectionType: TenantConnectionType;
  connections: Record<TenantConnectionKind, ConnectionValues>;
}

const EMPTY_CONNECTION: ConnectionValues = {
  host: '',
  port: 5432,
  database: '',
  user: '',
  password: '',
  sslMode: 'verify-full',
};

/** The form's starting point: the stored type and connections, with every password empty. */
export function connectionsValues(stored: TenantConnections): ConnectionsValues {
  const connections = Object.fromEntries(
    TENANT_CONNECTION_KINDS.map((kind) => {
      const found = stored.connections.find((connection) => connection.kind === kind);
      const values: ConnectionValues = found
        ? {
            host: found.host,
            port: found.port,
            database: found.database,
            user: found.user,
            password: '',
            sslMode: found.sslMode,
          }
        : { ...EMPTY_CONNECTION };
      return [kind, values];
    }),
  ) as Record<TenantConnectionKind, ConnectionValues>;
  return { connectionType: stored.connectionType, connections };
}

/**
 * The body of the test and save calls. Connections are always sent in TENANT_CONNECTION_KINDS
 * order, so the server's field errors (`connections.<index>…`) point back at the right fieldset.
 */
export function connectionsInput(values: ConnectionsValues): TenantConnectionsInput {
  if (values.connectionType === 'SHARED') return { connectionType: 'SHARED', connections: [] };
  return {
    connectionType: 'DEDICATED',
    connections: TENANT_CONNECTION_KINDS.map((kind) => {
      const connection = values.connections[kind];
      return {
        kind,
        host: connection.host,
        // An empty box becomes NaN, which the schema reports on the field instead of guessing a port.
        port: connection.port === '' ? Number.NaN : Number(connection.port),
        database: connection.database,
        user: connection.user,
        password: connection.password,
        sslMode: connection.sslMode,
      };
    }),
  };
}

export function kindAt(index: number): TenantConnectionKind | undefined {
  return TENANT_CONNECTION_KINDS[index];
}

/** One connection's outcome of the last successful test (a save answers with the stored set). */
export interface ConnectionResult {
  isReachable: true;
  milliseconds: number;
}

/**
 * A failed test or save says nothing about which connection failed or why (the server gives one
 * answer for an unreachable server, a refused login and a refused target, so that it cannot be
 * used to probe a network): the whole set is marked failed.
 */
export function isConnectionFailure(error: unknown): boolean {
  return isApiError(error) && error.code === 'tenant.connectionFailed';
}

/** The connection test on its own is for these roles; others test by saving. */
export function canTestConnectionsAlone(role: RoleCode): boolean {
  return role === 'ROOT' || role === 'SUPER_ADMIN';
}
