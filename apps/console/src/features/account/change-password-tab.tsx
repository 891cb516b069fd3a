import { useState, type SubmitEvent } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { changePasswordSchema } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isApiError } from '../../api/api-error';
import { fieldOfError } from '../../lib/form-errors';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { NewPasswordFields } from '../auth/new-password-fields';
import { addNewPasswordIssues, ALWAYS_REFINE, usePasswordRule } from '../auth/password-rule';
import { changePassword } from './account-api';

const EMPTY = { password: '', newPassword: '', confirmation: '' };

/** Answers about one field; shown under it rather than above the form. */
const FIELD_OF_CODE: Partial<Record<string, 'password' | 'newPassword'>> = {
  'password.wrongCurrent': 'password',
  'password.sameAsOld': 'newPassword',
};

/** Change password (spec §5: the tenant's rule, confirmation matches, new differs from old). */
export function ChangePasswordTab() {
  const { t } = useTranslation(['common', 'account']);
  const rule = usePasswordRule();
  const form = useFormState(EMPTY);
  const { values } = form;
  const [isDone, setIsDone] = useState(false);

  const schema = changePasswordSchema.extend({ confirmation: z.string() }).superRefine((value, context) => {
    // First, so it is the message shown: "same as now" says more than the rule list would.
    if (typeof value.password === 'string' && value.password !== '' && value.newPassword === value.password) {
      context.addIssue({ code: 'custom', path: ['newPassword'], message: 'form.passwordSameAsOld' });
    }
    addNewPasswordIssues(context, rule, {
      password: value.newPassword,
      confirmation: value.confirmation,
      passwordPath: 'newPassword',
      confirmationPath: 'confirmation',
    });
  }, ALWAYS_REFINE);

  const mutation = useMutation({
    mutationFn: changePassword,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      form.setValues(EMPTY);
      setIsDone(true);
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsDone(false);
    const parsed = form.validate(schema, values);
    if (parsed && !mutation.isPending)
      mutation.mutate({ password: parsed.password, newPassword: parsed.newPassword });
  };

  const errorCode = isApiError(mutation.error) ? mutation.error.code : undefined;
  const showAlert = mutation.isError && (errorCode === undefined || FIELD_OF_CODE[errorCode] === undefined);

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('account:changePassword.formLabel')}>
      <Paper withBorder radius="md" p="lg" maw={560}>
        <Stack gap="md">
          {isDone ? (
            <Alert
              color="teal"
              variant="light"
              role="status"
              title={t('account:changePassword.doneTitle')}
              data-testid="password-changed"
            >
              {t('account:changePassword.doneMessage')}
            </Alert>
          ) : null}
          {showAlert ? (
            <Alert color="red" variant="light" role="alert">
              {messageText(errorMessageFor(mutation.error))}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('account:changePassword.current')}
            value={values.password}
            onChange={(event) => {
              form.setField('password', event.currentTarget.value);
            }}
            error={form.errorOf('password')}
            autoComplete="current-password"
            visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
            withAsterisk
          />
          <NewPasswordFields
            password={values.newPassword}
            confirmation={values.confirmation}
            rule={rule}
            passwordLabel={t('account:changePassword.new')}
            passwordError={form.errorOf('newPassword')}
            confirmationError={form.errorOf('confirmation')}
            onPasswordChange={(value) => {
              form.setField('newPassword', value);
            }}
            onConfirmationChange={(value) => {
              form.setField('confirmation', value);
            }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={mutation.isPending}>
              {t('account:changePassword.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
