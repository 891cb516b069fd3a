/**
 * The toast container on its own, so that app.tsx can load it lazily: modules that only show
 * toasts (lib/notify.ts) import the notifications store from '@mantine/notifications', and a lazy
 * import of that package itself would put the container back into their chunk.
 */
import '@mantine/notifications/styles.css';

export { Notifications } from '@mantine/notifications';
