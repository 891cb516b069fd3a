import { useState, type SubmitEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Stepper, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { forgotPasswordSendSchema, phoneSchema, emailSchema, resetPasswordSchema } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { usePageTitle } from '../shell/use-page-title';
import { AuthLayout } from './auth-layout';
import { ChannelFields, normalizeDestination } from './channel-fields';
import { NewPasswordFields } from './new-password-fields';
import { OtpCodeField } from './otp-code-field';
import { addNewPasswordIssues, ALWAYS_REFINE, usePasswordRule } from './password-rule';
import { TenantField } from './tenant-field';
import { useCodeTimers } from './use-code-timers';
import {
  CODE_ERRORS,
  NEEDS_NEW_CODE,
  resetPassword,
  sendResetCode,
  type OtpChannel,
} from './verification-api';

const accountSchemas = {
  EMAIL: forgotPasswordSendSchema.pick({ tenant: true }).extend({ username: emailSchema }),
  SMS: forgotPasswordSendSchema.pick({ tenant: true }).extend({ username: phoneSchema }),
};
const codeSchema = resetPasswordSchema.pick({ otp: true });

type Step = 'account' | 'code' | 'password' | 'done';
const STEPS: readonly Step[] = ['account', 'code', 'password', 'done'];

interface ResetValues {
  tenant: string;
  type: OtpChannel;
  username: string;
  otp: string;
  newPassword: string;
  confirmation: string;
}

const hasCode = (error: unknown, codes: readonly string[]) =>
  isApiError(error) && error.code !== undefined && codes.includes(error.code);

/**
 * An account named in the link of a welcome email (`#tenant=…&email=…`): that email already
 * carries a code, so the page opens at the code step. The fragment never reaches the server.
 */
export function presetFromHash(hash: string): { tenant: string; type: OtpChannel; username: string } | null {
  // A mail client may keep the sentence's punctuation on the end of a linkified address.
  const values = new URLSearchParams(hash.replace(/^#/, '').replace(/[.,;:)]+$/, ''));
  const tenant = values.get('tenant')?.trim() ?? '';
  const email = values.get('email')?.trim() ?? '';
  return tenant !== '' && email !== '' ? { tenant, type: 'EMAIL', username: email } : null;
}

/** /forgot-password: account -> emailed or texted code -> new password -> back to sign-in. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle(t('forgot.pageTitle'));
  const rule = usePasswordRule();
  const [preset] = useState(() => presetFromHash(globalThis.location.hash));
  const form = useFormState<ResetValues>({
    tenant: preset?.tenant ?? '',
    type: 'EMAIL',
    username: preset?.username ?? '',
    otp: '',
    newPassword: '',
    confirmation: '',
  });
  const { values } = form;
  const [step, setStep] = useState<Step>(preset ? 'code' : 'account');
  const [account, setAccount] = useState<{ tenant: string; type: OtpChannel; username: string } | null>(preset);
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const timers = useCodeTimers();

  const send = useMutation({
    mutationFn: sendResetCode,
    meta: { errorDisplay: 'inline' },
    onSuccess: (sent, request) => {
      timers.onSent(sent);
      setAccount(request);
      setNeedsNewCode(false);
      form.setValues((current) => ({ ...current, otp: '' }));
      form.clearMessage('otp');
      setStep('code');
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });

  const reset = useMutation({
    mutationFn: resetPassword,
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      setStep('done');
    },
    onError: (error) => {
      if (hasCode(error, CODE_ERRORS)) {
        // The code, not the password, was refused: go back to it with the reason.
        form.setValues((current) => ({ ...current, otp: '' }));
        form.setMessage('otp', { text: messageText(errorMessageFor(error)) });
        setNeedsNewCode(hasCode(error, NEEDS_NEW_CODE));
        setStep('code');
        return;
      }
      form.showServerErrors(error);
    },
  });

  const passwordSchema = resetPasswordSchema
    .pick({ newPassword: true })
    .extend({ confirmation: z.string() })
    .superRefine((value, context) => {
      addNewPasswordIssues(context, rule, {
        password: value.newPassword,
        confirmation: value.confirmation,
        passwordPath: 'newPassword',
        confirmationPath: 'confirmation',
      });
    }, ALWAYS_REFINE);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step === 'account') {
      const username = normalizeDestination(values.type, values.username);
      const parsed = form.validate(accountSchemas[values.type], { tenant: values.tenant, username });
      if (parsed && !send.isPending)
        send.mutate({ tenant: parsed.tenant, type: values.type, username: parsed.username });
    } else if (step === 'code') {
      if (needsNewCode) return;
      if (form.validate(codeSchema, { otp: values.otp })) setStep('password');
    } else if (step === 'password' && account) {
      const parsed = form.validate(passwordSchema, values);
      if (parsed && !reset.isPending)
        reset.mutate({ ...account, otp: values.otp, newPassword: parsed.newPassword });
    }
  };

  const failure = step === 'account' ? send.error : step === 'password' ? reset.error : send.error;
  const showFailure = failure !== null && !hasCode(failure, CODE_ERRORS);

  return (
    <AuthLayout title={t('forgot.title')} subtitle={t('forgot.subtitle')} width={480}>
      <Stepper active={STEPS.indexOf(step)} size="xs" allowNextStepsSelect={false}>
        <Stepper.Step label={t('forgot.steps.account')} />
        <Stepper.Step label={t('forgot.steps.code')} />
        <Stepper.Step label={t('forgot.steps.password')} />
      </Stepper>
      {step === 'done' ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" title={t('forgot.doneTitle')} role="status">
            {t('forgot.doneMessage')}
          </Alert>
          <Button component={Link} to="/login" size="md" fullWidth autoFocus>
            {t('forgot.backToLogin')}
          </Button>
        </Stack>
      ) : (
        <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('forgot.formLabel')}>
          <Stack gap="md">
            {showFailure ? (
              <Alert color="red" variant="light" role="alert">
                {messageText(errorMessageFor(failure))}
              </Alert>
            ) : null}
            {step === 'account' ? (
              <>
                <TenantField
                  value={values.tenant}
                  error={form.errorOf('tenant')}
                  onChange={(value) => {
                    form.setField('tenant', value);
                  }}
                />
                <ChannelFields
                  channel={values.type}
                  destination={values.username}
                  error={form.errorOf('username')}
                  onChannelChange={(type) => {
                    form.setField('type', type);
                    form.clearMessage('username');
                  }}
                  onDestinationChange={(value) => {
                    form.setField('username', value);
                  }}
                />
              </>
            ) : null}
            {step === 'code' && account ? (
              <OtpCodeField
                value={values.otp}
                onChange={(value) => {
                  form.setField('otp', value);
                }}
                error={form.errorOf('otp')}
                destination={account.username}
                resendRemaining={timers.resendRemaining}
                expiresRemaining={timers.expiresRemaining}
                isResending={send.isPending}
                onResend={() => {
                  send.mutate(account);
                }}
              />
            ) : null}
            {step === 'password' ? (
              <NewPasswordFields
                password={values.newPassword}
                confirmation={values.confirmation}
                rule={rule}
                passwordLabel={t('forgot.newPassword')}
                isAutoFocused
                passwordError={form.errorOf('newPassword')}
                confirmationError={form.errorOf('confirmation')}
                onPasswordChange={(value) => {
                  form.setField('newPassword', value);
                }}
                onConfirmationChange={(value) => {
                  form.setField('confirmation', value);
                }}
              />
            ) : null}
            <Button
              type="submit"
              size="md"
              fullWidth
              loading={send.isPending || reset.isPending}
              disabled={step === 'code' && needsNewCode}
            >
              {step === 'account'
                ? t('forgot.sendCode')
                : step === 'code'
                  ? t('forgot.continue')
                  : t('forgot.save')}
            </Button>
            {step === 'account' ? null : (
              <Group justify="center">
                <Anchor
                  component="button"
                  type="button"
                  fz="sm"
                  onClick={() => {
                    setStep(step === 'password' ? 'code' : 'account');
                  }}
                >
                  {t('forgot.back')}
                </Anchor>
              </Group>
            )}
          </Stack>
        </form>
      )}
      {step === 'done' ? null : (
        <Text ta="center" fz="sm">
          <Anchor component={Link} to="/login" fz="sm">
            {t('forgot.backToLogin')}
          </Anchor>
        </Text>
      )}
    </AuthLayout>
  );
}
