import { useState } from 'react';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/query-client';
import { BrandedMantineProvider } from './features/shell/branding';
import { i18n } from './i18n';
import { notifyError, TOAST_CONTAINER } from './lib/notify';
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
          <Notifications {...TOAST_CONTAINER} />
          <RouterProvider router={router} />
        </BrandedMantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
