import {
  TENANT_CONNECTION_KINDS,
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

/** One connection's outcome of the last test or save. */
export type ConnectionResult =
  { isReachable: true; milliseconds: number | null } | { isReachable: false; reason: string };

/**
 * Per-connection results of a failed test or save: the server probes all three and names only
 * the failing ones (`connections.<index>`, message = the reason in the user's language), so the
 * others were reached. Returns null when the failure was not about reaching the servers.
 */
export function failedConnectionResults(
  error: unknown,
): Record<TenantConnectionKind, ConnectionResult> | null {
  if (!isApiError(error) || error.code !== 'tenant.connectionFailed') return null;
  const results = Object.fromEntries(
    TENANT_CONNECTION_KINDS.map((kind) => [kind, { isReachable: true, milliseconds: null }]),
  ) as Record<TenantConnectionKind, ConnectionResult>;
  for (const fieldError of error.fieldErrors) {
    const match = /^(?:body\.)?connections\.(\d+)$/.exec(fieldError.field);
    const kind = match ? kindAt(Number(match[1])) : undefined;
    if (kind) results[kind] = { isReachable: false, reason: fieldError.message };
  }
  return results;
}
