import type { LiveEvent } from '@rpm/contracts';
import { z } from 'zod';

/** What the SOS popup shows, read from a `sos.opened` event (fields the alert flow publishes). */
export interface SosAlert {
  eventId: number;
  caseId: string;
  patientId: string | null;
  patientName: string | null;
  reason: string | null;
  location: string | null;
  openedAt: string;
  /**
   * The readings that came with the SOS (canonical units, with their time) when the event carries
   * them; null when it does not, and the popup reads them from the case instead.
   */
  vitals: SosVital[] | null;
}

export interface SosVital {
  measure: string;
  value: number;
  measuredAt: string;
}

const vitalSchema = z.object({ measure: z.string().min(1), value: z.number(), measuredAt: z.string().min(1) });

const coordinatesSchema = z.object({ latitude: z.number(), longitude: z.number() });
const payloadSchema = z.object({
  sosCaseId: z.string().min(1),
  patientId: z.string().nullish(),
  patientName: z.string().nullish(),
  reason: z.string().nullish(),
  location: z.unknown().optional(),
  vitals: z.unknown().optional(),
});

/** The event's vitals, keeping the well-formed ones; null when the event has no list of them. */
function vitalsOf(vitals: unknown): SosVital[] | null {
  if (!Array.isArray(vitals)) return null;
  return vitals.flatMap((vital) => {
    const parsed = vitalSchema.safeParse(vital);
    return parsed.success ? [parsed.data] : [];
  });
}

function describeLocation(location: unknown): string | null {
  if (typeof location === 'string' && location.trim() !== '') return location;
  if (typeof location !== 'object' || location === null) return null;
  const record = location as Record<string, unknown>;
  for (const key of ['address', 'name', 'text']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  const coordinates = coordinatesSchema.safeParse({
    latitude: record.latitude ?? record.lat,
    longitude: record.longitude ?? record.lng,
  });
  return coordinates.success
    ? `${coordinates.data.latitude.toFixed(5)}, ${coordinates.data.longitude.toFixed(5)}`
    : null;
}

export function sosAlertOf(event: LiveEvent): SosAlert | null {
  const parsed = payloadSchema.safeParse(event.payload);
  if (!parsed.success) return null;
  return {
    eventId: event.id,
    caseId: parsed.data.sosCaseId,
    patientId: parsed.data.patientId ?? event.patientId ?? null,
    patientName: parsed.data.patientName ?? null,
    reason: parsed.data.reason ?? null,
    location: describeLocation(parsed.data.location),
    openedAt: event.createdAt,
    vitals: vitalsOf(parsed.data.vitals),
  };
}
