import { useEffect, useRef, useState } from 'react';
import { Group, Image, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { publicTenantQuery, tenantByHostQuery } from './auth-api';
import { asTenantCode, initialTenantCode, readRememberedTenant, rememberTenant } from './remembered-tenant';

/** How long typing must pause before the typed code is looked up. */
const LOOKUP_DELAY_MS = 300;

type Start = { kind: 'given' } | { kind: 'code'; code: string; fromLink: boolean } | { kind: 'host' };

/**
 * The tenant to sign in to, as its code (spec §5: a tenant code must be entered). There is no list
 * of tenants: the code is typed, or comes from a link (`?tenant=demo`, then remembered), from the
 * last sign-in in this browser, or from the host the console is served on. Once the code names an
 * active tenant, its name and logo show under the field so the person knows where they sign in.
 */
export function TenantField({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const [start] = useState<Start>(() => {
    if (value !== '') return { kind: 'given' };
    const initial = initialTenantCode(location.search, readRememberedTenant());
    return initial === null ? { kind: 'host' } : { kind: 'code', ...initial };
  });
  const filled = useRef(false);
  const byHost = useQuery({ ...tenantByHostQuery(), enabled: start.kind === 'host' });

  useEffect(() => {
    if (filled.current) return;
    if (start.kind === 'code') {
      filled.current = true;
      if (start.fromLink) rememberTenant(start.code);
      if (value === '') onChange(start.code);
    } else if (start.kind === 'host' && byHost.data) {
      filled.current = true;
      if (value === '') onChange(byHost.data.code);
    }
  }, [start, byHost.data, value, onChange]);

  const code = asTenantCode(value);
  const [settled] = useDebouncedValue(code, LOOKUP_DELAY_MS);
  const lookup = useQuery({ ...publicTenantQuery(settled ?? ''), enabled: settled !== null });
  const found = code !== null && settled === code && lookup.isSuccess ? lookup.data : null;

  return (
    <TextInput
      label={t('login.tenantCode')}
      description={
        found ? (
          <Group component="span" gap={6} wrap="nowrap" data-testid="tenant-name">
            {found.logos.square ? <Image src={found.logos.square} alt="" w={18} h={18} fit="contain" /> : null}
            <Text component="span" fz="xs" fw={600}>
              {found.name}
            </Text>
          </Group>
        ) : (
          t('login.tenantCodeHint')
        )
      }
      placeholder={t('login.tenantCodePlaceholder')}
      value={value}
      onChange={(event) => {
        onChange(event.currentTarget.value);
      }}
      error={error}
      autoComplete="organization"
      autoCapitalize="none"
      spellCheck={false}
      withAsterisk
    />
  );
}
