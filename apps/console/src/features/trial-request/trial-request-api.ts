import { tenantRequestSubmittedSchema, type TenantRequestForm } from '@rpm/contracts';
import { api } from '../../api/client';

export interface TrialRequestSubmission {
  form: TenantRequestForm;
  logoSquare: File;
  logoHorizontal: File;
}

/**
 * POST /manage/tenant-request (public, multipart): the text fields first, then both logos, the
 * order the server reads them in; it checks each logo's type by content and its size while
 * receiving it.
 */
export function submitTrialRequest({ form, logoSquare, logoHorizontal }: TrialRequestSubmission) {
  const body = new FormData();
  for (const [name, value] of Object.entries(form)) body.append(name, value);
  body.append('logoSquare', logoSquare);
  body.append('logoHorizontal', logoHorizontal);
  return api.post('/manage/tenant-request', body, { schema: tenantRequestSubmittedSchema });
}
