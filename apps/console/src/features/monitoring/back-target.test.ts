import { describe, expect, it } from 'vitest';
import { backTargetFor } from './back-target';

describe('backTargetFor', () => {
  it('sends those who handle cases and tickets to the list, wherever they came from', () => {
    for (const hasPrevious of [true, false])
      for (const canOpenPatient of [true, false])
        expect(backTargetFor({ canOpenList: true, hasPrevious, canOpenPatient, patientId: 'p' })).toEqual({
          kind: 'list',
        });
  });

  it('sends a doctor back where they came from, or to the patient when the page was opened directly', () => {
    expect(backTargetFor({ canOpenList: false, hasPrevious: true, canOpenPatient: true, patientId: 'p' })).toEqual({
      kind: 'previous',
    });
    expect(backTargetFor({ canOpenList: false, hasPrevious: false, canOpenPatient: true, patientId: 'p' })).toEqual({
      kind: 'patient',
      patientId: 'p',
    });
  });

  it('sends someone who may not open patients home when there is no page to go back to', () => {
    expect(backTargetFor({ canOpenList: false, hasPrevious: false, canOpenPatient: false, patientId: 'p' })).toEqual({
      kind: 'home',
    });
  });
});
