import { lazy, Suspense } from 'react';

/*
 * The bell's code (its count, live updates and the panels it opens) is fetched once the header is
 * drawn, alongside the first screen rather than before it: every area's first screen is held to a
 * budget (tools/bundle-size.ts) that the bell's kilobyte would exceed.
 */
const NotificationBell = lazy(() =>
  import('./notification-bell').then((module) => ({ default: module.NotificationBell })),
);

/** The header's place for the bell, held at the bell's width (a flex item) until its code is there. */
export function NotificationBellSlot() {
  return (
    <Suspense fallback={<span style={{ width: 34 }} />}>
      <NotificationBell />
    </Suspense>
  );
}
