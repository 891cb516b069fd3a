import { useId } from 'react';
import { PasswordInput, Stack } from '@mantine/core';
import type { PasswordRule } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { PasswordChecklist } from './password-checklist';

/**
 * A new password, its live rule checklist and its confirmation: the same three fields on the
 * registration, password-reset and change-password forms.
 */
export function NewPasswordFields({
  password,
  confirmation,
  rule,
  passwordLabel,
  passwordError,
  confirmationError,
  onPasswordChange,
  onConfirmationChange,
  isAutoFocused = false,
}: {
  password: string;
  confirmation: string;
  rule: PasswordRule;
  passwordLabel: string;
  passwordError: string | undefined;
  confirmationError: string | undefined;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  /** On a step of its own, the cursor starts in the new password. */
  isAutoFocused?: boolean;
}) {
  const { t } = useTranslation();
  const checklistId = useId();
  return (
    <Stack gap="xs">
      <PasswordInput
        label={passwordLabel}
        value={password}
        onChange={(event) => {
          onPasswordChange(event.currentTarget.value);
        }}
        error={passwordError}
        autoComplete="new-password"
        autoFocus={isAutoFocused}
        aria-describedby={checklistId}
        visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
        withAsterisk
      />
      <PasswordChecklist id={checklistId} password={password} rule={rule} />
      <PasswordInput
        label={t('passwordRule.confirmation')}
        value={confirmation}
        onChange={(event) => {
          onConfirmationChange(event.currentTarget.value);
        }}
        error={confirmationError}
        autoComplete="new-password"
        visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
        withAsterisk
      />
    </Stack>
  );
}
