import { describe, expect, it } from 'vitest';
import { codePackageInputOf, emptyCodePackageValues, typedPrefix, type CodePackageFormValues } from './code-package-form-values';

const PACKAGE_ID = '01890000-0000-7000-8000-000000000001';
const filled = (change: Partial<CodePackageFormValues> = {}): CodePackageFormValues => ({
  name: 'Partner hospital cards',
  type: 'PACKAGE',
  prefix: 'hp 1',
  totalCodes: '250',
  availableFrom: '01/03/2026',
  expiresOn: '31/12/2026',
  purpose: 'Discharged patients',
  benefit: 'A year of Gold',
  packageId: PACKAGE_ID,
  recipientOrganization: 'Partner Hospital',
  ...change,
});

describe('code package form payload', () => {
  it('sends ISO days, a whole count and the prefix in capitals', () => {
    expect(codePackageInputOf(filled()).input).toEqual({
      name: 'Partner hospital cards',
      type: 'PACKAGE',
      prefix: 'HP1',
      totalCodes: 250,
      availableFrom: '2026-03-01',
      expiresOn: '2026-12-31',
      purpose: 'Discharged patients',
      benefit: 'A year of Gold',
      packageId: PACKAGE_ID,
      recipientOrganization: 'Partner Hospital',
    });
  });

  it('says for every empty field that it is required (spec §5: all fields required)', () => {
    const { messages } = codePackageInputOf(emptyCodePackageValues());
    const fields = Object.keys(emptyCodePackageValues());
    expect(Object.keys(messages ?? {}).sort()).toEqual([...fields].sort());
    for (const field of fields) expect(messages?.[field]).toEqual({ key: `packages:codes.form.problems.required.${field}` });
    // Spaces only are empty too.
    expect(codePackageInputOf(filled({ purpose: '   ' })).messages).toEqual({
      purpose: { key: 'packages:codes.form.problems.required.purpose' },
    });
  });

  it('names the broken rules by field', () => {
    const { messages } = codePackageInputOf(
      filled({ prefix: 'H', totalCodes: '1.5', availableFrom: '31/02/2026', expiresOn: '2026-12-31' }),
    );
    expect(messages).toEqual({
      prefix: { key: 'packages:codes.form.problems.prefix' },
      totalCodes: { key: 'packages:codes.form.problems.totalCodes', values: { maximum: 10_000 } },
      availableFrom: { key: 'packages:codes.form.problems.date' },
      expiresOn: { key: 'packages:codes.form.problems.date' },
    });
    expect(codePackageInputOf(filled({ totalCodes: '0' })).messages?.totalCodes).toMatchObject({ key: 'packages:codes.form.problems.totalCodes' });
    expect(codePackageInputOf(filled({ totalCodes: '10001' })).messages?.totalCodes).toMatchObject({ key: 'packages:codes.form.problems.totalCodes' });
    expect(codePackageInputOf(filled({ prefix: 'HP-1' })).messages?.prefix).toEqual({ key: 'packages:codes.form.problems.prefix' });
  });

  it('wants the expiry date after the availability date, said at once with other problems', () => {
    expect(codePackageInputOf(filled({ expiresOn: '01/03/2026' })).messages).toEqual({
      expiresOn: { key: 'packages:codes.form.problems.dateOrder' },
    });
    expect(codePackageInputOf(filled({ name: '', expiresOn: '28/02/2026' })).messages).toEqual({
      name: { key: 'packages:codes.form.problems.required.name' },
      expiresOn: { key: 'packages:codes.form.problems.dateOrder' },
    });
  });

  it('keeps the prefix as stored while it is typed', () => {
    expect(typedPrefix(' ab 12 ')).toBe('AB12');
  });
});
