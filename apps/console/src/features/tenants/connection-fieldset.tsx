import {
  Badge,
  Fieldset,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Text,
  TextInput,
} from '@mantine/core';
import { SSL_MODES, type TenantConnectionKind } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import type { ConnectionResult, ConnectionValues } from './connections-model';

type TextField = 'host' | 'database' | 'user';

/**
 * One of the three databases of a DEDICATED tenant (primary, replica, vitals), with the time it
 * took to connect in the last successful test. Field paths are those of the API body (`connections.<index>.host`)
 * so the server's field errors land on the right input.
 */
export function ConnectionFieldset({
  kind,
  index,
  values,
  onChange,
  errorOf,
  result,
  hasStoredPassword,
}: {
  kind: TenantConnectionKind;
  index: number;
  values: ConnectionValues;
  onChange: (next: Partial<ConnectionValues>) => void;
  errorOf: (path: string) => string | undefined;
  result: ConnectionResult | undefined;
  hasStoredPassword: boolean;
}) {
  const { t } = useTranslation('tenants');
  const path = (field: string) => `connections.${String(index)}.${field}`;
  const text = (field: TextField) => (
    <TextInput
      label={t(`connections.fields.${field}`)}
      value={values[field]}
      onChange={(event) => {
        onChange({ [field]: event.currentTarget.value });
      }}
      error={errorOf(path(field))}
      withAsterisk
      autoComplete="off"
      spellCheck={false}
    />
  );

  return (
    <Fieldset
      legend={
        <Group gap="xs" component="span">
          <Text span fw={600}>
            {t(`connections.kinds.${kind}`)}
          </Text>
          {result ? (
            <Badge color="teal" variant="light" tt="none" data-testid={`connection-${kind}-ok`}>
              {t('connections.reachableIn', { milliseconds: result.milliseconds })}
            </Badge>
          ) : null}
        </Group>
      }
      radius="md"
      data-testid={`connection-${kind}`}
    >
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {text('host')}
        <NumberInput
          label={t('connections.fields.port')}
          min={1}
          max={65535}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=""
          value={values.port}
          onChange={(value) => {
            onChange({ port: value });
          }}
          error={errorOf(path('port'))}
          withAsterisk
        />
        {text('database')}
        {text('user')}
        <PasswordInput
          label={t('connections.fields.password')}
          // A hint, not a description: a description would push this input below its row's others.
          placeholder={hasStoredPassword ? t('connections.passwordStored') : undefined}
          value={values.password}
          onChange={(event) => {
            onChange({ password: event.currentTarget.value });
          }}
          error={errorOf(path('password'))}
          withAsterisk
          // A database password, not the user's own login: keep the browser's password manager out.
          autoComplete="new-password"
          visibilityToggleButtonProps={{ 'aria-label': t('connections.togglePassword') }}
        />
        <Select
          label={t('connections.fields.sslMode')}
          data={SSL_MODES.map((mode) => ({ value: mode, label: t(`connections.ssl.${mode}`) }))}
          value={values.sslMode}
          onChange={(value) => {
            const mode = SSL_MODES.find((item) => item === value);
            if (mode) onChange({ sslMode: mode });
          }}
          error={errorOf(path('sslMode'))}
          allowDeselect={false}
        />
      </SimpleGrid>
    </Fieldset>
  );
}
