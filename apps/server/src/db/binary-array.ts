/**
 * One-dimensional PostgreSQL arrays in the binary wire format (array_recv), for statements that
 * pass thousands of values in a few array parameters. pg sends a Buffer parameter in binary, and
 * PostgreSQL reads it with the receive function of the type the statement casts it to
 * (`$1::timestamptz[]`): an instant is then eight bytes copied rather than a text parsed by the
 * date-time parser, and a number the same (a batch of a thousand readings: about 1,700 instants
 * and 2,700 numbers). The element type in the header must be the cast's, or PostgreSQL refuses the
 * value ("wrong element type"). No nulls: every caller passes values only.
 *
 * Layout: ndim, has-nulls flag, element type OID, then per dimension its length and lower bound,
 * then each element as its byte length and bytes (all integers big-endian).
 */

/** Element type OIDs (pg_type): fixed since PostgreSQL 7. */
const OID = { bool: 16, int4: 23, text: 25, float8: 701, timestamptz: 1184 } as const;

/** PostgreSQL's epoch, 2000-01-01T00:00:00Z, in Unix milliseconds. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
const TWO_TO_32 = 4_294_967_296;
/** The largest instant a Date holds (±100,000,000 days from 1970). */
const MAX_DATE_MS = 8.64e15;

const HEADER_BYTES = 20;

function header(buffer: Buffer, elementType: number, length: number): number {
  if (length === 0) {
    // An empty array has no dimensions.
    buffer.writeInt32BE(0, 0);
    buffer.writeInt32BE(0, 4);
    buffer.writeInt32BE(elementType, 8);
    return 12;
  }
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(0, 4);
  buffer.writeInt32BE(elementType, 8);
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16);
  return HEADER_BYTES;
}

/** Elements of one fixed width: each is its length then `write`'s bytes. */
function fixedWidth(
  elementType: number,
  width: number,
  length: number,
  write: (buffer: Buffer, offset: number, index: number) => void,
): Buffer {
  const buffer = Buffer.allocUnsafe(length === 0 ? 12 : HEADER_BYTES + length * (4 + width));
  let offset = header(buffer, elementType, length);
  for (let index = 0; index < length; index += 1) {
    buffer.writeInt32BE(width, offset);
    write(buffer, offset + 4, index);
    offset += 4 + width;
  }
  return buffer;
}

/** A float8[] (every finite double exactly; NaN and infinities as PostgreSQL's). */
export function float8Array(values: readonly number[]): Buffer {
  return fixedWidth(OID.float8, 8, values.length, (buffer, offset, index) => {
    buffer.writeDoubleBE(values[index] ?? 0, offset);
  });
}

/** An int4[]; each value must be an integer within int4's range. */
export function int4Array(values: readonly number[]): Buffer {
  return fixedWidth(OID.int4, 4, values.length, (buffer, offset, index) => {
    buffer.writeInt32BE(values[index] ?? 0, offset);
  });
}

/** A boolean[]. */
export function boolArray(values: readonly boolean[]): Buffer {
  return fixedWidth(OID.bool, 1, values.length, (buffer, offset, index) => {
    buffer.writeUInt8(values[index] === true ? 1 : 0, offset);
  });
}

/**
 * A timestamptz[] of instants given in Unix milliseconds: PostgreSQL keeps microseconds since its
 * epoch in an int64, written here as two 32-bit halves computed without leaving exact integer
 * arithmetic (microseconds themselves pass 2^53 some 285 years from 2000). Instants that are not
 * whole milliseconds, or lie outside a Date's range, are refused.
 */
export function timestamptzArray(instantsMs: readonly number[]): Buffer {
  return fixedWidth(OID.timestamptz, 8, instantsMs.length, (buffer, offset, index) => {
    const ms = instantsMs[index] ?? Number.NaN;
    if (!Number.isInteger(ms) || Math.abs(ms) > MAX_DATE_MS)
      throw new RangeError(`not an instant in whole milliseconds: ${String(ms)}`);
    const since = ms - POSTGRES_EPOCH_MS;
    const sinceHigh = Math.floor(since / TWO_TO_32);
    const lowMicros = (since - sinceHigh * TWO_TO_32) * 1000; // below 2^42
    const carry = Math.floor(lowMicros / TWO_TO_32);
    buffer.writeInt32BE(sinceHigh * 1000 + carry, offset);
    buffer.writeUInt32BE(lowMicros - carry * TWO_TO_32, offset + 4);
  });
}

/** A text[] (UTF-8; the connection's client encoding must be UTF8, as pg sets it). */
export function textArray(values: readonly string[]): Buffer {
  let bytes = 0;
  const lengths = new Array<number>(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const length = Buffer.byteLength(values[index] ?? '', 'utf8');
    lengths[index] = length;
    bytes += 4 + length;
  }
  const buffer = Buffer.allocUnsafe(values.length === 0 ? 12 : HEADER_BYTES + bytes);
  let offset = header(buffer, OID.text, values.length);
  for (let index = 0; index < values.length; index += 1) {
    const length = lengths[index] ?? 0;
    buffer.writeInt32BE(length, offset);
    buffer.write(values[index] ?? '', offset + 4, length, 'utf8');
    offset += 4 + length;
  }
  return buffer;
}
