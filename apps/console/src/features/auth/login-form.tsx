import { useState, type SubmitEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { SESSION_QUERY_ROOT, signIn } from './auth-api';
import { hasErrors, validateLoginForm, type LoginFormErrors, type LoginFormValues } from './login-validation';
import { TenantField } from './tenant-field';
import { UnlockForm } from './lazy-forms';

type FieldName = keyof LoginFormErrors;

/** Server field errors arrive as dotted paths ("body.username"); map the ones this form shows. */
function serverFieldErrors(error: unknown): Partial<Record<FieldName, string>> {
  const result: Partial<Record<FieldName, string>> = {};
  if (!isApiError(error)) return result;
  for (const fieldError of error.fieldErrors) {
    const name = fieldError.field.split('.').pop();
    if (name === 'tenant' || name === 'username' || name === 'password') result[name] = fieldError.message;
  }
  return result;
}

/**
 * Password sign-in (spec §7 POST /auth/oauth-token). When the account is locked, it offers to
 * unlock it with a code sent to the account's own email or phone, then to sign in again.
 */
export function LoginForm({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<LoginFormValues>({
    tenant: '',
    username: '',
    password: '',
    rememberMe: false,
  });
  const [errors, setErrors] = useState<LoginFormErrors>({});
  const [unlocking, setUnlocking] = useState<{ tenant: string; username: string } | null>(null);
  const [isUnlocked, setIsUnlocked] = useState(false);

  const mutation = useMutation({
    mutationFn: signIn,
    // A 401 here is the answer "wrong credentials", shown in the form, not a session that ended.
    meta: { handlesAuthErrors: true, errorDisplay: 'inline' },
    onSuccess: () => {
      // Start from a clean slate: the startup sequence checks the new session from the beginning.
      queryClient.removeQueries({ queryKey: [SESSION_QUERY_ROOT] });
      void navigate(returnTo, { replace: true });
    },
  });

  const update = <K extends keyof LoginFormValues>(name: K, value: LoginFormValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (name in errors) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateLoginForm(values);
    setErrors(found);
    if (hasErrors(found) || mutation.isPending) return;
    setIsUnlocked(false);
    mutation.mutate({ ...values, tenant: values.tenant.trim(), username: values.username.trim() });
  };

  const fromServer = serverFieldErrors(mutation.error);
  const fieldError = (name: FieldName): string | undefined => {
    const key = errors[name];
    return key ? t(key) : fromServer[name];
  };

  if (unlocking !== null) {
    return (
      <UnlockForm
        tenant={unlocking.tenant}
        username={unlocking.username}
        onUnlocked={() => {
          mutation.reset();
          setUnlocking(null);
          setIsUnlocked(true);
          setValues((current) => ({ ...current, password: '' }));
        }}
        onCancel={() => {
          setUnlocking(null);
        }}
      />
    );
  }

  const lockedLogin =
    isApiError(mutation.error) && mutation.error.code === 'auth.accountLocked' ? mutation.variables : undefined;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('login.formLabel')}>
      <Stack gap="md">
        {isUnlocked ? (
          <Alert color="teal" variant="light" role="status" data-testid="unlock-done">
            {t('unlock.done')}
          </Alert>
        ) : null}
        {mutation.isError ? (
          <Alert color="red" variant="light" title={t('login.failedTitle')} role="alert">
            {messageText(errorMessageFor(mutation.error))}
            {lockedLogin === undefined ? null : (
              <Anchor
                component="button"
                type="button"
                display="block"
                mt={6}
                fz="sm"
                data-testid="unlock-offer"
                onClick={() => {
                  setUnlocking({ tenant: lockedLogin.tenant, username: lockedLogin.username });
                }}
              >
                {t('unlock.offer')}
              </Anchor>
            )}
          </Alert>
        ) : null}
        <TenantField
          value={values.tenant}
          error={fieldError('tenant')}
          onChange={(value) => {
            update('tenant', value);
          }}
        />
        <TextInput
          label={t('login.username')}
          placeholder={t('login.usernamePlaceholder')}
          value={values.username}
          onChange={(event) => {
            update('username', event.currentTarget.value);
          }}
          error={fieldError('username')}
          autoComplete="username"
          withAsterisk
        />
        <PasswordInput
          label={t('login.password')}
          value={values.password}
          onChange={(event) => {
            update('password', event.currentTarget.value);
          }}
          error={fieldError('password')}
          autoComplete="current-password"
          visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
          withAsterisk
        />
        <Checkbox
          label={t('login.rememberMe')}
          checked={values.rememberMe}
          onChange={(event) => {
            update('rememberMe', event.currentTarget.checked);
          }}
        />
        <Button type="submit" size="md" fullWidth loading={mutation.isPending}>
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
