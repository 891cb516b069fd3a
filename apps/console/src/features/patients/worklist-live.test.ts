import type { PatientSummary } from '@rpm/contracts';
import { describe, expect, it } from 'vitest';
import { withOpenedCase } from './worklist-live';

const row = (id: string, attention: PatientSummary['attention']) =>
  ({ id, attention, openSosCaseId: null }) as unknown as PatientSummary;

describe('withOpenedCase', () => {
  const page = { items: [row('a', 'OPEN_SOS_CASE'), row('b', 'AT_RISK'), row('c', 'NORMAL')], total: 3 };

  it('moves the patient of the new case to the top with its case, above older open cases', () => {
    const next = withOpenedCase(page, { patientId: 'c', sosCaseId: 'case-c' });
    expect(next.items.map((item) => [item.id, item.attention, item.openSosCaseId])).toEqual([
      ['c', 'OPEN_SOS_CASE', 'case-c'],
      ['a', 'OPEN_SOS_CASE', null],
      ['b', 'AT_RISK', null],
    ]);
    expect(next.total).toBe(3);
  });

  it('leaves the page as it is when the patient is not on it', () => {
    expect(withOpenedCase(page, { patientId: 'z', sosCaseId: 'case-z' })).toBe(page);
  });
});
