import type { CenterDetail, CenterDetailsInput, CenterForm } from '@rpm/contracts';

/** What the center form's inputs hold: text as typed, selects possibly unchosen. */
export interface CenterValues {
  name: string;
  type: string;
  representative: string;
  phonePrefix: string;
  phoneNumber: string;
  hotline: string;
  email: string;
  website: string;
  address: string;
  lat: string;
  lng: string;
  scopeId: string | null;
  mainAdminId: string | null;
  supportAdminIds: string[];
}

export const EMPTY_CENTER: CenterValues = {
  name: '',
  type: '',
  representative: '',
  phonePrefix: '+84',
  phoneNumber: '',
  hotline: '',
  email: '',
  website: '',
  address: '',
  lat: '',
  lng: '',
  scopeId: null,
  mainAdminId: null,
  supportAdminIds: [],
};

export function centerValuesOf(center: CenterDetail): CenterValues {
  return {
    name: center.name,
    type: center.type,
    representative: center.representative,
    phonePrefix: center.phonePrefix,
    phoneNumber: center.phoneNumber,
    hotline: center.hotline,
    email: center.email,
    website: center.website,
    address: center.address,
    lat: center.lat === null ? '' : String(center.lat),
    lng: center.lng === null ? '' : String(center.lng),
    scopeId: center.scope?.id ?? null,
    mainAdminId: center.mainAdmin?.userId ?? null,
    supportAdminIds: center.supportAdmins.map((admin) => admin.userId),
  };
}

/** The input the contract schemas parse: unchosen selects are "not given". */
export function centerSchemaInput(values: CenterValues) {
  return { ...values, scopeId: values.scopeId ?? undefined, mainAdminId: values.mainAdminId ?? undefined };
}

const DETAIL_FIELDS = [
  'name',
  'type',
  'representative',
  'phonePrefix',
  'phoneNumber',
  'hotline',
  'email',
  'website',
  'address',
] as const satisfies readonly (keyof CenterDetailsInput)[];

/**
 * The multipart body of the create and edit calls (route summary: one form field per field, the
 * support admins repeated, a field left out is "not given", the logo as the `logo` file part).
 */
export function centerFormData(parsed: CenterForm, logo: File | null): FormData {
  const body = new FormData();
  for (const field of DETAIL_FIELDS) body.append(field, parsed[field]);
  if (parsed.lat !== undefined) body.append('lat', String(parsed.lat));
  if (parsed.lng !== undefined) body.append('lng', String(parsed.lng));
  if (parsed.scopeId !== undefined) body.append('scopeId', parsed.scopeId);
  body.append('mainAdminId', parsed.mainAdminId);
  for (const id of parsed.supportAdminIds) body.append('supportAdminIds', id);
  if (logo) body.append('logo', logo);
  return body;
}
