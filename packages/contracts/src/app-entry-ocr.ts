/**
 * Photo entry: the text an OCR engine read from a device's display, turned into candidate values
 * (blood pressure with pulse, SpO2, glucose, temperature, weight, heart rate) for the patient to
 * confirm or correct before saving. Pure, so any OCR adapter's text goes through the same rules.
 */
import type { OcrCandidate } from './app-entry.js';
import { displayUnit, fromCanonical, toCanonical, type Measure, type UnitPreferences } from './vitals.js';

type Scalar = Exclude<OcrCandidate['measure'], 'BLOOD_PRESSURE'>;

const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', o: '0', D: '0', l: '1', I: '1', S: '5', B: '8' };

/**
 * Common OCR slips: look-alike letters inside a number (1O8 → 108, but SYS stays SYS), a decimal
 * comma, degree signs written as º or o, and runs of spaces.
 */
export function normalizeOcrText(text: string): string {
  return text
    .replace(/[º˚]/g, '°')
    .split('\n')
    .map((line) =>
      line
        .replace(/\b[0-9OolISDB]+\b/g, (token) =>
          /\d/.test(token) ? token.replace(/[OolISDB]/g, (char) => DIGIT_LOOKALIKES[char] ?? char) : token,
        )
        .replace(/(\d),(\d)/g, '$1.$2')
        .replace(/[ \t]+/g, ' ')
        .trim(),
    )
    .filter((line) => line.length > 0)
    .join('\n');
}

const NUMBER = String.raw`(\d{1,3}(?:\.\d{1,2})?)`;
const GAP = String.raw`[^\d\n]{0,12}?`;

const UNIT_NAMES: Record<string, string> = {
  'mg/dl': 'mg/dL',
  'mmol/l': 'mmol/L',
  c: 'C',
  f: 'F',
  kg: 'kg',
  lb: 'lbs',
  lbs: 'lbs',
};
const unitOf = (text: string | undefined) => (text === undefined ? null : (UNIT_NAMES[text.toLowerCase().replace(/[°\s]/g, '')] ?? null));

/** The first match of any pattern: its number and its unit group, if the pattern has one. */
function firstMatch(text: string, patterns: RegExp[]): { value: number; unit: string | null } | null {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return { value: Number(match[1]), unit: unitOf(match[2]) };
  }
  return null;
}

const SCALAR_PATTERNS: Record<Scalar, RegExp[]> = {
  SPO2: [
    new RegExp(String.raw`(?:sp\s*[o0]\s*2|o2\s*sat|oxygen)${GAP}${NUMBER}`, 'i'),
    new RegExp(String.raw`\b${NUMBER}\s*%`, 'i'),
  ],
  HEART_RATE: [
    new RegExp(String.raw`(?:\bpul(?:se)?|\bpr\b|\bhr\b|heart\s*rate|bpm)${GAP}${NUMBER}`, 'i'),
    new RegExp(String.raw`\b${NUMBER}\s*(?:bpm|/\s*min|beats)`, 'i'),
  ],
  GLUCOSE: [
    new RegExp(String.raw`(?:glu(?:cose)?|sugar)${GAP}${NUMBER}\s*(mg\s*/\s*dl|mmol\s*/\s*l)?`, 'i'),
    new RegExp(String.raw`\b${NUMBER}\s*(mg\s*/\s*dl|mmol\s*/\s*l)`, 'i'),
  ],
  TEMPERATURE: [
    new RegExp(String.raw`(?:temp(?:erature)?)${GAP}${NUMBER}\s*(°\s*[cf]\b|[cf]\b)?`, 'i'),
    new RegExp(String.raw`\b${NUMBER}\s*(°\s*[cf]\b|°)`, 'i'),
    new RegExp(String.raw`\b(\d{2,3}\.\d)\s*([cf])\b`, 'i'),
  ],
  WEIGHT: [
    new RegExp(String.raw`(?:weight|\bwt\b)${GAP}${NUMBER}\s*(kg|lbs?)?\b`, 'i'),
    new RegExp(String.raw`\b${NUMBER}\s*(kg|lbs?)\b`, 'i'),
  ],
};

/** Where a reading can lie on a display: a number outside it is something else (a date, a memory slot). */
const PLAUSIBLE: Record<Scalar | 'SYSTOLIC' | 'DIASTOLIC', [number, number]> = {
  SYSTOLIC: [50, 300],
  DIASTOLIC: [20, 200],
  HEART_RATE: [20, 300],
  SPO2: [50, 100],
  GLUCOSE: [1, 900],
  TEMPERATURE: [25, 115],
  WEIGHT: [1, 1600],
};
const plausible = (measure: keyof typeof PLAUSIBLE, value: number) =>
  value >= PLAUSIBLE[measure][0] && value <= PLAUSIBLE[measure][1];

function bloodPressureOf(text: string): { systolic: number; diastolic: number; pulse?: number } | null {
  const labelled = {
    systolic: firstMatch(text, [new RegExp(String.raw`\bsys(?:tolic)?${GAP}(\d{2,3})\b`, 'i')])?.value,
    diastolic: firstMatch(text, [new RegExp(String.raw`\bdia(?:stolic)?${GAP}(\d{2,3})\b`, 'i')])?.value,
  };
  if (labelled.systolic !== undefined && labelled.diastolic !== undefined) return { systolic: labelled.systolic, diastolic: labelled.diastolic };
  const pair = /\b(\d{2,3})\s*\/\s*(\d{2,3})\b/.exec(text);
  if (pair) return { systolic: Number(pair[1]), diastolic: Number(pair[2]) };
  // A monitor's display: mmHg printed, the big numbers systolic, diastolic and pulse in order.
  if (!/mm\s*hg/i.test(text)) return null;
  const numbers = [...text.matchAll(/(?<![\d.:/])(\d{2,3})(?![\d.:/])/g)].map((match) => Number(match[1]));
  const [systolic, diastolic, pulse] = numbers;
  if (systolic === undefined || diastolic === undefined || systolic <= diastolic) return null;
  return pulse === undefined ? { systolic, diastolic } : { systolic, diastolic, pulse };
}

/**
 * The values a display's text shows, at most one per measure: blood pressure from SYS / DIA
 * labels, a "128/82" pair, or a display that prints mmHg with its numbers in order (systolic,
 * diastolic, pulse); the others from their label or their unit. Implausible numbers are skipped.
 */
export function parseReadingText(raw: string): OcrCandidate[] {
  const text = normalizeOcrText(raw);
  const candidates: OcrCandidate[] = [];
  const pressure = bloodPressureOf(text);
  let pulse: number | undefined;
  if (pressure && plausible('SYSTOLIC', pressure.systolic) && plausible('DIASTOLIC', pressure.diastolic) && pressure.systolic > pressure.diastolic) {
    candidates.push({ measure: 'BLOOD_PRESSURE', systolic: pressure.systolic, diastolic: pressure.diastolic, unit: 'mmHg' });
    pulse = pressure.pulse;
  }
  for (const measure of ['HEART_RATE', 'SPO2', 'GLUCOSE', 'TEMPERATURE', 'WEIGHT'] as const) {
    const found = firstMatch(text, SCALAR_PATTERNS[measure]);
    const value = found?.value ?? (measure === 'HEART_RATE' ? pulse : undefined);
    if (value === undefined || !plausible(measure, value)) continue;
    candidates.push({ measure, value, unit: found?.unit ?? null });
  }
  return candidates;
}

/**
 * A candidate in the unit the patient enters (their own units): a value printed in another unit
 * (°F for a °C patient, mmol/L, lbs) is converted, rounded to one decimal (two for mmol/L).
 */
export function candidateInUnits(candidate: OcrCandidate, units: UnitPreferences): OcrCandidate {
  if (candidate.measure === 'BLOOD_PRESSURE' || candidate.value === undefined) return candidate;
  const measure: Measure = candidate.measure;
  const target = displayUnit(measure, units);
  if (candidate.unit === null || candidate.unit === target) return { ...candidate, unit: target };
  const converted = fromCanonical(measure, toCanonical(measure, candidate.value, candidate.unit), target);
  const digits = target === 'mmol/L' ? 100 : 10;
  return { ...candidate, value: Math.round(converted * digits) / digits, unit: target };
}
