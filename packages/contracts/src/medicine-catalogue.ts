import type { MedicineForm, MedicineRoute } from './care-plan.js';

/**
 * A small catalogue of common medicines to pick from when writing a prescription (free text stays
 * allowed). Each entry is a generic name with its WHO ATC code as its id, the usual route and form,
 * and usual strengths, which the form offers and never enforces. It covers the chronic conditions a
 * monitoring center follows most (diabetes, hypertension, heart disease, cholesterol, gout, asthma)
 * and a few everyday medicines; a tenant catalogue can replace it later.
 */
export interface CatalogueMedicine {
  /** The WHO ATC code. */
  id: string;
  name: string;
  route: MedicineRoute;
  form: MedicineForm;
  strengths: readonly string[];
}

export const MEDICINE_CATALOGUE: readonly CatalogueMedicine[] = [
  {
    id: 'A10BA02',
    name: 'Metformin',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['500 mg', '850 mg', '1000 mg'],
  },
  {
    id: 'A10BB09',
    name: 'Gliclazide',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['30 mg', '60 mg', '80 mg'],
  },
  { id: 'A10BB12', name: 'Glimepiride', route: 'ORAL', form: 'TABLET', strengths: ['1 mg', '2 mg', '4 mg'] },
  { id: 'A10BH01', name: 'Sitagliptin', route: 'ORAL', form: 'TABLET', strengths: ['50 mg', '100 mg'] },
  { id: 'A10BK03', name: 'Empagliflozin', route: 'ORAL', form: 'TABLET', strengths: ['10 mg', '25 mg'] },
  {
    id: 'A10AE04',
    name: 'Insulin glargine',
    route: 'SUBCUTANEOUS',
    form: 'INJECTABLE',
    strengths: ['100 units/mL'],
  },
  { id: 'C08CA01', name: 'Amlodipine', route: 'ORAL', form: 'TABLET', strengths: ['5 mg', '10 mg'] },
  { id: 'C09CA01', name: 'Losartan', route: 'ORAL', form: 'TABLET', strengths: ['25 mg', '50 mg', '100 mg'] },
  { id: 'C09CA03', name: 'Valsartan', route: 'ORAL', form: 'TABLET', strengths: ['80 mg', '160 mg'] },
  { id: 'C09AA02', name: 'Enalapril', route: 'ORAL', form: 'TABLET', strengths: ['5 mg', '10 mg', '20 mg'] },
  { id: 'C09AA03', name: 'Lisinopril', route: 'ORAL', form: 'TABLET', strengths: ['5 mg', '10 mg', '20 mg'] },
  {
    id: 'C09AA04',
    name: 'Perindopril',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['4 mg', '5 mg', '8 mg', '10 mg'],
  },
  {
    id: 'C07AB07',
    name: 'Bisoprolol',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['2.5 mg', '5 mg', '10 mg'],
  },
  {
    id: 'C07AB02',
    name: 'Metoprolol',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['25 mg', '50 mg', '100 mg'],
  },
  {
    id: 'C03AA03',
    name: 'Hydrochlorothiazide',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['12.5 mg', '25 mg'],
  },
  { id: 'C03CA01', name: 'Furosemide', route: 'ORAL', form: 'TABLET', strengths: ['20 mg', '40 mg'] },
  { id: 'C03DA01', name: 'Spironolactone', route: 'ORAL', form: 'TABLET', strengths: ['25 mg', '50 mg'] },
  {
    id: 'C10AA05',
    name: 'Atorvastatin',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['10 mg', '20 mg', '40 mg', '80 mg'],
  },
  {
    id: 'C10AA07',
    name: 'Rosuvastatin',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['5 mg', '10 mg', '20 mg'],
  },
  {
    id: 'C10AA01',
    name: 'Simvastatin',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['10 mg', '20 mg', '40 mg'],
  },
  {
    id: 'B01AC06',
    name: 'Acetylsalicylic acid (aspirin)',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['75 mg', '81 mg', '100 mg'],
  },
  { id: 'B01AC04', name: 'Clopidogrel', route: 'ORAL', form: 'TABLET', strengths: ['75 mg'] },
  { id: 'B01AA03', name: 'Warfarin', route: 'ORAL', form: 'TABLET', strengths: ['1 mg', '2 mg', '5 mg'] },
  { id: 'B01AF02', name: 'Apixaban', route: 'ORAL', form: 'TABLET', strengths: ['2.5 mg', '5 mg'] },
  {
    id: 'B01AF01',
    name: 'Rivaroxaban',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['10 mg', '15 mg', '20 mg'],
  },
  { id: 'C01AA05', name: 'Digoxin', route: 'ORAL', form: 'TABLET', strengths: ['0.125 mg', '0.25 mg'] },
  {
    id: 'C01DA02',
    name: 'Glyceryl trinitrate (nitroglycerin)',
    route: 'SUBLINGUAL',
    form: 'SPRAY',
    strengths: ['0.4 mg/dose'],
  },
  { id: 'M04AA01', name: 'Allopurinol', route: 'ORAL', form: 'TABLET', strengths: ['100 mg', '300 mg'] },
  { id: 'M04AC01', name: 'Colchicine', route: 'ORAL', form: 'TABLET', strengths: ['0.5 mg', '1 mg'] },
  {
    id: 'H03AA01',
    name: 'Levothyroxine',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['25 µg', '50 µg', '100 µg'],
  },
  { id: 'R03AC02', name: 'Salbutamol', route: 'PULMONARY', form: 'SPRAY', strengths: ['100 µg/dose'] },
  {
    id: 'R03AK07',
    name: 'Budesonide and formoterol',
    route: 'PULMONARY',
    form: 'SPRAY',
    strengths: ['160/4.5 µg/dose'],
  },
  { id: 'A02BC01', name: 'Omeprazole', route: 'ORAL', form: 'CAPSULE', strengths: ['20 mg', '40 mg'] },
  { id: 'A02BC05', name: 'Esomeprazole', route: 'ORAL', form: 'TABLET', strengths: ['20 mg', '40 mg'] },
  { id: 'N02BE01', name: 'Paracetamol', route: 'ORAL', form: 'TABLET', strengths: ['500 mg', '650 mg'] },
  { id: 'M01AE01', name: 'Ibuprofen', route: 'ORAL', form: 'TABLET', strengths: ['200 mg', '400 mg'] },
  { id: 'J01CA04', name: 'Amoxicillin', route: 'ORAL', form: 'CAPSULE', strengths: ['250 mg', '500 mg'] },
  {
    id: 'J01CR02',
    name: 'Amoxicillin and clavulanic acid',
    route: 'ORAL',
    form: 'TABLET',
    strengths: ['500/125 mg', '875/125 mg'],
  },
  { id: 'H02AB06', name: 'Prednisolone', route: 'ORAL', form: 'TABLET', strengths: ['5 mg', '20 mg'] },
  { id: 'R06AE07', name: 'Cetirizine', route: 'ORAL', form: 'TABLET', strengths: ['10 mg'] },
  { id: 'N06AB06', name: 'Sertraline', route: 'ORAL', form: 'TABLET', strengths: ['50 mg', '100 mg'] },
  { id: 'N03AX12', name: 'Gabapentin', route: 'ORAL', form: 'CAPSULE', strengths: ['300 mg', '400 mg'] },
  { id: 'G04CA02', name: 'Tamsulosin', route: 'ORAL', form: 'CAPSULE', strengths: ['0.4 mg'] },
];

/** Lower case without accents, so "Metfórmin" and "METFORMIN" find the same entry. */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase('en')
    .trim();
}

/**
 * The catalogue entries a typed text finds: by the start of a word of the name, else anywhere in
 * it, or by the start of the ATC code; word starts first, then by name. An empty text finds none.
 */
export function searchMedicineCatalogue(text: string, limit = 10): CatalogueMedicine[] {
  const query = folded(text);
  if (query === '') return [];
  const ranked: { medicine: CatalogueMedicine; rank: number }[] = [];
  for (const medicine of MEDICINE_CATALOGUE) {
    const name = folded(medicine.name);
    const words = name.split(/[\s()/-]+/);
    const rank = name.startsWith(query)
      ? 0
      : words.some((word) => word.startsWith(query))
        ? 1
        : medicine.id.toLowerCase().startsWith(query)
          ? 2
          : name.includes(query)
            ? 3
            : -1;
    if (rank >= 0) ranked.push({ medicine, rank });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || a.medicine.name.localeCompare(b.medicine.name, 'en'))
    .slice(0, limit)
    .map((entry) => entry.medicine);
}
