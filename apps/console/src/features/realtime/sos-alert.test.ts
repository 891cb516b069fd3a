import type { LiveEvent } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { sosAlertOf } from './sos-alert';

const event = (payload: Record<string, unknown>): LiveEvent => ({
  id: 7,
  type: 'sos.opened',
  patientId: 'patient-1',
  healthCenterId: null,
  createdAt: '2025-05-01T09:00:00.000Z',
  payload,
});

describe('sosAlertOf', () => {
  it('keeps the vitals the event carries, with their time, and drops malformed ones', () => {
    const alert = sosAlertOf(
      event({
        sosCaseId: 'case-1',
        vitals: [
          { measure: 'SPO2', value: 84.5, measuredAt: '2025-05-01T08:58:00.000Z' },
          { measure: 'HEART_RATE', value: 'high' },
        ],
      }),
    );
    expect(alert?.vitals).toEqual([{ measure: 'SPO2', value: 84.5, measuredAt: '2025-05-01T08:58:00.000Z' }]);
  });

  it('says when the event has no vitals (null), unlike an SOS that came with none (empty)', () => {
    expect(sosAlertOf(event({ sosCaseId: 'case-1' }))?.vitals).toBeNull();
    expect(sosAlertOf(event({ sosCaseId: 'case-1', vitals: [] }))?.vitals).toEqual([]);
  });
});
