/**
 * A gateway's refusal or failure. `retryable` says whether the same request may succeed later
 * (the gateway was down, overloaded or slow: network errors, 5xx, 429); a refusal of the request
 * itself (a wrong number, bad credentials, an unregistered brand name) is not retried.
 */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly details: { status?: number; code?: string } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

/** Every call to a gateway gives up after this long (less than the outbox lease). */
export const GATEWAY_TIMEOUT_MS = 15_000;

/** A fetch that turns network trouble and timeouts into a retryable GatewayError. */
export async function gatewayFetch(gateway: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS) });
  } catch (error) {
    throw new GatewayError(`${gateway}: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

/** Whether an HTTP status means "try again later". */
export const isRetryableStatus = (status: number) => status >= 500 || status === 429 || status === 408;
