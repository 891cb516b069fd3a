import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Group, Image, MantineProvider, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { cspNonce } from '../../csp-nonce';
import { buildTheme, cssVariablesResolver, type TenantSettingsMap } from '../../theme';
import { PulseIcon } from './icons';
import { useSession } from './session-context';

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
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme="light"
        getStyleNonce={cspNonce}
      >
        {children}
      </MantineProvider>
    </BrandingContext.Provider>
  );
}

export function useSetBranding(): SetBranding {
  return useContext(BrandingContext);
}

/**
 * The product mark in the header: the tenant's horizontal logo when it has one (the product name
 * stays as its alt text), else its square logo or the product icon beside the product name.
 * The square logo also becomes the browser tab's icon while signed in to that tenant.
 */
export function HeaderBrand() {
  const { t } = useTranslation();
  const { logos } = useSession();
  const [failed, setFailed] = useState<string | null>(null);
  const horizontal = logos.horizontal !== failed ? logos.horizontal : undefined;
  const square = logos.square !== failed ? logos.square : undefined;
  useTabIcon(square);

  if (horizontal)
    return (
      <Image
        src={horizontal}
        alt={t('app.name')}
        h={36}
        w="auto"
        maw={220}
        fit="contain"
        data-testid="header-logo"
        onError={() => {
          setFailed(horizontal);
        }}
      />
    );
  return (
    <Group gap="sm" wrap="nowrap">
      {square ? (
        <Image
          src={square}
          alt=""
          h={28}
          w={28}
          fit="contain"
          data-testid="header-icon"
          onError={() => {
            setFailed(square);
          }}
        />
      ) : (
        <PulseIcon width={24} height={24} color="var(--mantine-primary-color-filled)" />
      )}
      <Text fw={700}>{t('app.name')}</Text>
    </Group>
  );
}

/** Points the page's icon at `href` while mounted; the built-in icon comes back afterwards. */
function useTabIcon(href: string | undefined): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link || !href) return;
    const original = link.href;
    link.href = href;
    return () => {
      link.href = original;
    };
  }, [href]);
}
