import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { BrandedMantineProvider } from './features/shell/branding';
import { i18n } from './i18n';
import { notifyError, TOAST_CONTAINER } from './lib/notify';
import { createRouter } from './routes';

/**
 * The toast container (with its transitions, drag to dismiss and portal) is fetched alongside the
 * first screen rather than before it: no screen waits for it. Toasts shown before it arrives are
 * kept in the notifications store and appear when it mounts.
 */
const Notifications = lazy(() =>
  import('./toast-container').then((module) => ({ default: module.Notifications })),
);

export function App() {
  // Created once per page load, not per render: the cache and the router hold the session's state.
  const [queryClient] = useState(() =>
    createQueryClient({
      notify: (error, meta) => {
        notifyError(error, meta?.errorMessageKey);
      },
    }),
  );
  const [router] = useState(createRouter);

  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BrandedMantineProvider>
          <Suspense fallback={null}>
            <Notifications {...TOAST_CONTAINER} />
          </Suspense>
          <RouterProvider router={router} />
        </BrandedMantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
