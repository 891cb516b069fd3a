import { useState, type SubmitEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { OtpCodeField } from './otp-code-field';
import { useCodeTimers } from './use-code-timers';
import { CODE_ERRORS, NEEDS_NEW_CODE, sendUnlockCode, unlockWithCode, type OtpChannel } from './verification-api';

const isOneOf = <T extends string>(list: readonly T[], code: string | undefined): code is T =>
  code !== undefined && (list as readonly string[]).includes(code);

/** The code goes where the user signs in from: an email login gets an email, a phone login an SMS. */
export const unlockChannelOf = (username: string): OtpChannel => (username.includes('@') ? 'EMAIL' : 'SMS');

/**
 * After "This account has been locked": a code sent to the account's own email or phone lifts the
 * lock (POST /auth/unlock/otp/send, then /auth/unlock), and the user signs in again with the
 * password. The server answers the same for any account, so this form never says whether one
 * exists or is locked.
 */
export function UnlockForm({
  tenant,
  username,
  onUnlocked,
  onCancel,
}: {
  tenant: string;
  username: string;
  onUnlocked: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const request = { tenant, type: unlockChannelOf(username), username };
  const [hasSent, setHasSent] = useState(false);
  const [otp, setOtp] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>(undefined);
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const timers = useCodeTimers();

  const send = useMutation({
    mutationFn: sendUnlockCode,
    meta: { errorDisplay: 'inline' },
    onSuccess: (sent) => {
      timers.onSent(sent);
      setOtp('');
      setCodeError(undefined);
      setNeedsNewCode(false);
      if (hasSent) notifySuccess(t('otp.resent'));
      setHasSent(true);
    },
  });

  const unlock = useMutation({
    mutationFn: unlockWithCode,
    meta: { handlesAuthErrors: true, errorDisplay: 'inline' },
    onSuccess: onUnlocked,
    onError: (error) => {
      const code = isApiError(error) ? error.code : undefined;
      if (!isOneOf(CODE_ERRORS, code)) return;
      setOtp('');
      setCodeError(messageText(errorMessageFor(error)));
      if (isOneOf(NEEDS_NEW_CODE, code)) setNeedsNewCode(true);
    },
  });

  const unlockCode = isApiError(unlock.error) ? unlock.error.code : undefined;
  const topError =
    unlock.isError && !isOneOf(CODE_ERRORS, unlockCode) ? unlock.error : send.isError ? send.error : null;

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!hasSent) {
      if (!send.isPending) send.mutate(request);
      return;
    }
    if (unlock.isPending || needsNewCode) return;
    if (!/^\d{6}$/.test(otp)) {
      setCodeError(t('form.otpIncomplete'));
      return;
    }
    unlock.mutate({ ...request, otp });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('unlock.formLabel')} data-testid="unlock-form">
      <Stack gap="md">
        <Text fw={600}>{t('unlock.title')}</Text>
        {topError ? (
          <Alert color="red" variant="light" title={t('login.failedTitle')} role="alert" data-testid="unlock-alert">
            {messageText(errorMessageFor(topError))}
          </Alert>
        ) : null}
        {hasSent ? (
          <OtpCodeField
            value={otp}
            onChange={(value) => {
              setOtp(value);
              setCodeError(undefined);
            }}
            error={codeError}
            destination={username}
            resendRemaining={timers.resendRemaining}
            expiresRemaining={timers.expiresRemaining}
            isResending={send.isPending}
            onResend={() => {
              setCodeError(undefined);
              send.mutate(request);
            }}
          />
        ) : (
          <Text fz="sm" c="dimmed">
            {t(request.type === 'EMAIL' ? 'unlock.hintEmail' : 'unlock.hintSms', { username })}
          </Text>
        )}
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={hasSent ? unlock.isPending : send.isPending}
          disabled={hasSent && needsNewCode}
        >
          {hasSent ? t('unlock.submit') : t('unlock.send')}
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" fz="sm" onClick={onCancel}>
            {t('unlock.cancel')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
