import type { MedicalRecordType, PatientFile } from '@rpm/contracts';

/** The list call: latest examination first, with the search (trimmed, left out when empty) and type. */
export function recordsPath(
  filter: { search: string; type: MedicalRecordType | '' },
  page: number,
  size: number,
): string {
  const query = new URLSearchParams({
    page: String(page),
    size: String(size),
    sortField: 'examinationDate',
    sortType: 'desc',
  });
  const search = filter.search.trim();
  if (search !== '') query.set('search', search);
  if (filter.type !== '') query.set('type', filter.type);
  return `/health/me/records?${query.toString()}`;
}

/** A calendar day (YYYY-MM-DD) in the app's date format for the language: "15 Jan 2025", "15 thg 1, 2025". */
export function dayText(language: string, day: string): string {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** A file's size for people: bytes, KB or MB with at most one decimal, in the language's digits. */
export function sizeText(language: string, bytes: number): string {
  const number = (value: number) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
  if (bytes < 1000) return `${number(bytes)} B`;
  if (bytes < 1_000_000) return `${number(bytes / 1000)} KB`;
  return `${number(bytes / 1_000_000)} MB`;
}

export type FileKind = 'image' | 'pdf';

export function fileKind(file: Pick<PatientFile, 'contentType'>): FileKind {
  return file.contentType === 'application/pdf' ? 'pdf' : 'image';
}
