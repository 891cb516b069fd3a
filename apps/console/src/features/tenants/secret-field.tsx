import { Anchor, Group, PasswordInput, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SecretEdit } from './tenant-settings-model';

/**
 * A credential setting (OCR, AI keys). The server only ever sends it masked (its last characters),
 * so the field starts empty: typing replaces the stored value, "Remove" clears it, and leaving it
 * empty keeps what is stored. The masked value is shown beside, never put in the input.
 */
export function SecretField({
  label,
  masked,
  edit,
  onChange,
  error,
}: {
  label: string;
  masked: string;
  edit: SecretEdit;
  onChange: (edit: SecretEdit) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('tenants');
  const isStored = masked !== '';
  const status =
    edit.mode === 'clear'
      ? t('settings.secretWillBeRemoved')
      : isStored
        ? t('settings.secretStored', { masked })
        : t('settings.secretNotSet');

  return (
    <PasswordInput
      label={label}
      description={
        <Group gap="xs" component="span">
          <Text span fz="xs" c={edit.mode === 'clear' ? 'orange.8' : 'dimmed'}>
            {status}
          </Text>
          {isStored && edit.mode !== 'clear' ? (
            <Anchor
              component="button"
              type="button"
              fz="xs"
              onClick={() => {
                onChange({ mode: 'clear' });
              }}
            >
              {t('settings.secretRemove')}
            </Anchor>
          ) : null}
          {edit.mode === 'clear' ? (
            <Anchor
              component="button"
              type="button"
              fz="xs"
              onClick={() => {
                onChange({ mode: 'keep' });
              }}
            >
              {t('settings.secretUndo')}
            </Anchor>
          ) : null}
        </Group>
      }
      placeholder={isStored ? t('settings.secretReplacePlaceholder') : t('settings.secretPlaceholder')}
      value={edit.mode === 'replace' ? edit.value : ''}
      onChange={(event) => {
        const value = event.currentTarget.value;
        onChange(value === '' ? { mode: 'keep' } : { mode: 'replace', value });
      }}
      error={error}
      // Not "off": browsers ignore it for password fields and would fill in a saved login.
      autoComplete="new-password"
      visibilityToggleButtonProps={{ 'aria-label': t('settings.secretToggle') }}
    />
  );
}
