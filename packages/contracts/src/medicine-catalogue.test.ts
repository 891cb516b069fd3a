import { describe, expect, it } from 'vitest';
import { MEDICINE_FORMS, MEDICINE_ROUTES } from './care-plan.js';
import { MEDICINE_CATALOGUE, searchMedicineCatalogue } from './medicine-catalogue.js';

describe('medicine catalogue', () => {
  it('holds each ATC code and name once, with the §3 routes and forms', () => {
    expect(new Set(MEDICINE_CATALOGUE.map((medicine) => medicine.id)).size).toBe(MEDICINE_CATALOGUE.length);
    expect(new Set(MEDICINE_CATALOGUE.map((medicine) => medicine.name.toLowerCase())).size).toBe(
      MEDICINE_CATALOGUE.length,
    );
    for (const medicine of MEDICINE_CATALOGUE) {
      expect(medicine.id, medicine.name).toMatch(/^[A-Z]\d{2}[A-Z]{2}\d{2}$/);
      expect(MEDICINE_ROUTES).toContain(medicine.route);
      expect(MEDICINE_FORMS).toContain(medicine.form);
      expect(medicine.strengths.length, medicine.name).toBeGreaterThan(0);
    }
  });

  it('finds by the start of the name first, then of a word, then the ATC code, then anywhere', () => {
    expect(searchMedicineCatalogue('met').map((medicine) => medicine.name)).toEqual([
      'Metformin',
      'Metoprolol',
    ]);
    expect(searchMedicineCatalogue('aspirin').map((medicine) => medicine.id)).toEqual(['B01AC06']);
    expect(searchMedicineCatalogue('clav').map((medicine) => medicine.name)).toEqual([
      'Amoxicillin and clavulanic acid',
    ]);
    expect(searchMedicineCatalogue('c09ca').map((medicine) => medicine.name)).toEqual([
      'Losartan',
      'Valsartan',
    ]);
    expect(searchMedicineCatalogue('statin').map((medicine) => medicine.name)).toEqual([
      'Atorvastatin',
      'Rosuvastatin',
      'Simvastatin',
    ]);
    expect(searchMedicineCatalogue('amox').map((medicine) => medicine.name)).toEqual([
      'Amoxicillin',
      'Amoxicillin and clavulanic acid',
    ]);
  });

  it('ignores case, accents and spaces around the text; finds nothing for nothing; keeps to the limit', () => {
    expect(searchMedicineCatalogue('  METFÓRMIN ').map((medicine) => medicine.id)).toEqual(['A10BA02']);
    expect(searchMedicineCatalogue('')).toEqual([]);
    expect(searchMedicineCatalogue('   ')).toEqual([]);
    expect(searchMedicineCatalogue('zzz')).toEqual([]);
    expect(searchMedicineCatalogue('a', 3)).toHaveLength(3);
  });
});
