import { notifications } from '@mantine/notifications';
import { errorMessageFor, type ErrorMessage } from '../api/error-reaction';
import { translateKey } from '../i18n';

export function messageText(message: ErrorMessage): string {
  return 'text' in message ? message.text : translateKey(message.key);
}

/** Shows a failure as a toast that stays until closed (spec §9: no auto time-out). */
export function notifyError(error: unknown, actionMessageKey?: string): void {
  notifications.show({
    color: 'red',
    title: translateKey('toast.errorTitle'),
    message: messageText(errorMessageFor(error, actionMessageKey)),
    withCloseButton: true,
    closeButtonProps: { 'aria-label': translateKey('toast.close') },
  });
}

export function notifySuccess(message: string): void {
  notifications.show({
    color: 'teal',
    message,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': translateKey('toast.close') },
  });
}
