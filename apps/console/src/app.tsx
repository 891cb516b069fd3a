import { useState } from 'react';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { LIMITS } from '@rpm/contracts';
import { createQueryClient } from './api/query-client';
import { BrandedMantineProvider } from './features/shell/branding';
import { DesktopOnly } from './features/shell/desktop-only-notice';
import { i18n } from './i18n';
import { notifyError } from './lib/notify';
import { createRouter } from './routes';

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
          {/* Spec §9: at most 6 toasts, no auto time-out (so hovering never races a timer). */}
          <Notifications limit={LIMITS.maxToasts} autoClose={false} position="bottom-right" />
          <DesktopOnly>
            <RouterProvider router={router} />
          </DesktopOnly>
        </BrandedMantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
