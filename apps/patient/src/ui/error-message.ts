import i18next from 'i18next';
import { ApiError } from '../api/client';

/**
 * The message for a failed call: the server's own (already in the app's language), else the
 * catalogue's for its code, else the spec's default message.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.code) return i18next.t(error.code, { ns: 'errors' });
    if (error.status === 0) return i18next.t('common.network', { ns: 'errors' });
  }
  return i18next.t('common.default', { ns: 'errors' });
}
