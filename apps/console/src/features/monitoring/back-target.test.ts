import { describe, expect, it } from 'vitest';
import { backTargetFor } from './back-target';

describe('backTargetFor', () => {
  it('sends those who handle cases and tickets to the list, wherever they came from', () => {
    expect(backTargetFor({ canOpenList: true, hasPrevious: true, patientId: 'p' })).toEqual({ kind: 'list' });
    expect(backTargetFor({ canOpenList: true, hasPrevious: false, patientId: 'p' })).toEqual({ kind: 'list' });
  });

  it('sends a doctor back where they came from, or to the patient when the page was opened directly', () => {
    expect(backTargetFor({ canOpenList: false, hasPrevious: true, patientId: 'p' })).toEqual({ kind: 'previous' });
    expect(backTargetFor({ canOpenList: false, hasPrevious: false, patientId: 'p' })).toEqual({
      kind: 'patient',
      patientId: 'p',
    });
  });
});
