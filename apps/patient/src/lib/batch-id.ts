/**
 * A random UUID v4 for a batch id (the collector's and the manual entry's idempotency key).
 * Made from crypto.getRandomValues, not crypto.randomUUID: randomUUID exists only in secure
 * contexts, and a phone opening the demo over plain http on the local network must still sync.
 * `random` fills the bytes (tests pass their own).
 */
export function newBatchId(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  const bytes = random(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
