import type { NotificationsProps } from '@mantine/notifications';
import { notifications } from '@mantine/notifications';
import { LIMITS } from '@rpm/contracts';
import { errorMessageFor, type ErrorMessage } from '../api/error-reaction';
import { translateKey } from '../i18n';

/**
 * Where toasts appear and how many at once (spec §9: at most 6). Top right: forms keep their Save
 * and Cancel buttons in a bottom action bar, which a bottom-corner toast would cover.
 */
export const TOAST_CONTAINER: Pick<NotificationsProps, 'position' | 'limit' | 'autoClose'> = {
  position: 'top-right',
  limit: LIMITS.maxToasts,
  // Each toast says how long it stays (below); none closes by a container-wide default.
  autoClose: false,
};

/**
 * How long a success toast stays. The timer pauses while the pointer is over the toast and resumes
 * when it leaves, so a toast being read is not taken away, nor left for ever.
 */
export const SUCCESS_TOAST_MILLISECONDS = 5000;

export function messageText(message: ErrorMessage): string {
  return 'text' in message ? message.text : translateKey(message.key);
}

/** Shows a failure as a toast that stays until closed (spec §9: no auto time-out). */
export function notifyError(error: unknown, actionMessageKey?: string): void {
  notifications.show({
    color: 'red',
    title: translateKey('toast.errorTitle'),
    message: messageText(errorMessageFor(error, actionMessageKey)),
    autoClose: false,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': translateKey('toast.close') },
  });
}

/** Shows a confirmation that closes by itself after SUCCESS_TOAST_MILLISECONDS (paused on hover). */
export function notifySuccess(message: string): void {
  notifications.show({
    color: 'teal',
    message,
    autoClose: SUCCESS_TOAST_MILLISECONDS,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': translateKey('toast.close') },
  });
}
