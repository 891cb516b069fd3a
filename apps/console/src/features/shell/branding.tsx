import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { buildTheme, type TenantSettingsMap } from '../../theme';

type SetBranding = (settings: TenantSettingsMap | null) => void;

const BrandingContext = createContext<SetBranding>(() => undefined);

/**
 * Mantine with the signed-in tenant's colours and font. Branding is known only at startup step 3,
 * so the provider starts with the product defaults and the startup gate swaps the tenant's in;
 * ending the session puts the defaults back.
 */
export function BrandedMantineProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<TenantSettingsMap | null>(null);
  const theme = useMemo(() => buildTheme(settings ?? {}), [settings]);
  return (
    <BrandingContext.Provider value={setSettings}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        {children}
      </MantineProvider>
    </BrandingContext.Provider>
  );
}

export function useSetBranding(): SetBranding {
  return useContext(BrandingContext);
}
