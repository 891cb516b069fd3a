import { describe, expect, it } from 'vitest';
import { exportInputOf, inListOrder, type ExportFormValues } from './export-form-values';

const filled: ExportFormValues = {
  attributes: ['total', 'code', 'responseMessage'],
  methods: ['SANDBOX', 'VNPAY'],
  from: '01/01/2026',
  to: '31/01/2026',
  status: null,
};

describe('order export form', () => {
  it('sends the chosen attributes and methods in the order of their lists, the days as ISO dates', () => {
    expect(exportInputOf(filled).input).toEqual({
      attributes: ['code', 'total', 'responseMessage'],
      methods: ['VNPAY', 'SANDBOX'],
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(exportInputOf({ ...filled, status: 'REFUNDED' }).input?.status).toBe('REFUNDED');
    // One day is a period.
    expect(exportInputOf({ ...filled, to: '01/01/2026' }).input?.to).toBe('2026-01-01');
  });

  it('refuses an export without an attribute, a payment method or the dates (spec §5)', () => {
    const result = exportInputOf({ attributes: [], methods: [], from: '', to: '', status: null });
    expect(result.input).toBeUndefined();
    expect(result.messages).toEqual({
      attributes: { key: 'payments:transactions.export.problems.attributes' },
      methods: { key: 'payments:transactions.export.problems.methods' },
      from: { key: 'payments:transactions.export.problems.date' },
      to: { key: 'payments:transactions.export.problems.date' },
    });
  });

  it('names an unreal date and an end before the start', () => {
    expect(exportInputOf({ ...filled, from: '31/02/2026' }).messages).toEqual({
      from: { key: 'payments:transactions.export.problems.dateInvalid' },
    });
    expect(exportInputOf({ ...filled, from: '02/02/2026', to: '01/02/2026' }).messages).toEqual({
      to: { key: 'payments:transactions.export.problems.order' },
    });
  });

  it('keeps only known values, in list order', () => {
    expect(inListOrder(['a', 'b', 'c'] as const, ['c', 'x', 'a'])).toEqual(['a', 'c']);
  });
});
