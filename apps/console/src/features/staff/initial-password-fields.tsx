import { useId } from 'react';
import { Divider, PasswordInput, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordChecklist } from '../auth/password-checklist';
import { usePasswordRule } from '../auth/password-rule';

/**
 * The optional initial password of a new staff account, with the live rule checklist of the
 * identity forms; the confirmation appears once a password is typed (nothing to confirm before).
 */
export function InitialPasswordFields({
  password,
  confirmation,
  passwordError,
  confirmationError,
  onPasswordChange,
  onConfirmationChange,
}: {
  password: string;
  confirmation: string;
  passwordError: string | undefined;
  confirmationError: string | undefined;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
}) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const rule = usePasswordRule();
  const checklistId = useId();
  return (
    <>
      <Divider label={t('staff.form.sectionPassword')} labelPosition="left" />
      <SimpleGrid cols={2} spacing="md">
        <Stack gap="xs">
          <PasswordInput
            label={t('staff.form.password')}
            description={t('staff.form.passwordHint')}
            value={password}
            onChange={(event) => {
              onPasswordChange(event.currentTarget.value);
            }}
            error={passwordError}
            autoComplete="new-password"
            aria-describedby={checklistId}
            visibilityToggleButtonProps={{ 'aria-label': tc('login.togglePassword') }}
          />
          {password === '' ? null : <PasswordChecklist id={checklistId} password={password} rule={rule} />}
        </Stack>
        {password === '' ? null : (
          <PasswordInput
            label={tc('passwordRule.confirmation')}
            value={confirmation}
            onChange={(event) => {
              onConfirmationChange(event.currentTarget.value);
            }}
            error={confirmationError}
            autoComplete="new-password"
            visibilityToggleButtonProps={{ 'aria-label': tc('login.togglePassword') }}
            withAsterisk
          />
        )}
      </SimpleGrid>
    </>
  );
}
