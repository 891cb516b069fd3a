import { translateKey } from '../../i18n';

/** Types people commonly give scopes and centers; any other type is shown as it was typed. */
const KNOWN_TYPES = new Set(['COUNTRY', 'REGION', 'PROVINCE', 'CITY', 'DISTRICT', 'WARD', 'CLINIC', 'HOSPITAL']);

/**
 * A scope's or center's type (free text, spec §3) in the console's language when it is one of the
 * common ones ("CITY" -> "Thành phố"), else as typed.
 */
export function organisationTypeLabel(type: string): string {
  const code = type.trim().toUpperCase();
  return KNOWN_TYPES.has(code) ? translateKey(`org:organisationTypes.${code}`) : type;
}
