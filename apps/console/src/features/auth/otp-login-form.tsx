import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { otpGrantSchema, otpSendMailSchema, otpSendSmsSchema } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { SESSION_QUERY_ROOT } from './auth-api';
import { ChannelFields, normalizeDestination } from './channel-fields';
import { OtpCodeField } from './otp-code-field';
import { TenantField } from './tenant-field';
import { useCodeTimers } from './use-code-timers';
import {
  CODE_ERRORS,
  NEEDS_NEW_CODE,
  sendLoginCode,
  signInWithCode,
  type OtpChannel,
} from './verification-api';

// Form schemas derived from the API's: the form has one "destination" field for both channels.
const emailRequestSchema = otpSendMailSchema
  .pick({ tenant: true })
  .extend({ destination: otpSendMailSchema.shape.email });
const smsRequestSchema = otpSendSmsSchema
  .pick({ tenant: true })
  .extend({ destination: otpSendSmsSchema.shape.phoneNumber });
const codeSchema = otpGrantSchema.pick({ otp: true });

const isOneOf = <T extends string>(list: readonly T[], code: string | undefined): code is T =>
  code !== undefined && (list as readonly string[]).includes(code);

interface OtpValues {
  tenant: string;
  channel: OtpChannel;
  destination: string;
  otp: string;
  rememberMe: boolean;
}

/** Sign-in with a one-time code (spec §2 "by OTP", §7 oauth/otp/*): ask for a code, then type it. */
export function OtpLoginForm({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useFormState<OtpValues>({
    tenant: '',
    channel: 'EMAIL',
    destination: '',
    otp: '',
    rememberMe: false,
  });
  const { values } = form;
  const [sentTo, setSentTo] = useState<{ tenant: string; channel: OtpChannel; destination: string } | null>(
    null,
  );
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const timers = useCodeTimers();
  const destinationRef = useRef<HTMLInputElement>(null);

  const send = useMutation({
    mutationFn: sendLoginCode,
    meta: { errorDisplay: 'inline' },
    onSuccess: (sent, request) => {
      timers.onSent(sent);
      setNeedsNewCode(false);
      form.setValues((current) => ({ ...current, otp: '' }));
      if (sentTo !== null) notifySuccess(t('otp.resent'));
      setSentTo(request);
    },
    onError: (error) => {
      form.showServerErrors(error, { email: 'destination', phoneNumber: 'destination' });
    },
  });

  const verify = useMutation({
    mutationFn: signInWithCode,
    meta: { handlesAuthErrors: true, errorDisplay: 'inline' },
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [SESSION_QUERY_ROOT] });
      void navigate(returnTo, { replace: true });
    },
    onError: (error) => {
      const code = isApiError(error) ? error.code : undefined;
      if (!isOneOf(CODE_ERRORS, code)) return;
      // The code is spent or wrong: empty the boxes so the next one is typed fresh.
      form.setValues((current) => ({ ...current, otp: '' }));
      form.setMessage('otp', { text: messageText(errorMessageFor(error)) });
      if (isOneOf(NEEDS_NEW_CODE, code)) setNeedsNewCode(true);
    },
  });

  // Back on the first step, the cursor returns to the field the user will most likely correct.
  // Not on the first visit, where the form starts at the top with the tenant.
  const hasSentCode = useRef(false);
  useEffect(() => {
    if (sentTo !== null) hasSentCode.current = true;
    else if (hasSentCode.current) destinationRef.current?.focus();
  }, [sentTo]);

  const requestCode = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const destination = normalizeDestination(values.channel, values.destination);
    const schema = values.channel === 'EMAIL' ? emailRequestSchema : smsRequestSchema;
    const parsed = form.validate(schema, { tenant: values.tenant, destination });
    if (!parsed || send.isPending) return;
    verify.reset();
    send.mutate({ tenant: parsed.tenant, channel: values.channel, destination: parsed.destination });
  };

  const submitCode = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!sentTo || verify.isPending || needsNewCode) return;
    const parsed = form.validate(codeSchema, { otp: values.otp });
    if (!parsed) return;
    verify.mutate({ ...sentTo, code: parsed.otp, rememberMe: values.rememberMe });
  };

  const verifyCode = isApiError(verify.error) ? verify.error.code : undefined;
  const topError =
    verify.isError && !isOneOf(CODE_ERRORS, verifyCode) ? verify.error : send.isError ? send.error : null;
  const topAlert = topError ? (
    <Alert color="red" variant="light" title={t('login.failedTitle')} role="alert" data-testid="otp-alert">
      {messageText(errorMessageFor(topError))}
    </Alert>
  ) : null;

  if (sentTo === null) {
    return (
      <form ref={form.formRef} onSubmit={requestCode} noValidate aria-label={t('otp.requestFormLabel')}>
        <Stack gap="md">
          {topAlert}
          <TenantField
            value={values.tenant}
            error={form.errorOf('tenant')}
            onChange={(value) => {
              form.setField('tenant', value);
            }}
          />
          <ChannelFields
            channel={values.channel}
            destination={values.destination}
            error={form.errorOf('destination')}
            inputRef={destinationRef}
            onChannelChange={(channel) => {
              form.setField('channel', channel);
              form.clearMessage('destination');
            }}
            onDestinationChange={(value) => {
              form.setField('destination', value);
            }}
          />
          <Text fz="xs" c="dimmed">
            {t('otp.requestHint')}
          </Text>
          <Button type="submit" size="md" fullWidth loading={send.isPending}>
            {t('otp.send')}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <form ref={form.formRef} onSubmit={submitCode} noValidate aria-label={t('otp.codeFormLabel')}>
      <Stack gap="md">
        {topAlert}
        <OtpCodeField
          value={values.otp}
          onChange={(value) => {
            form.setField('otp', value);
          }}
          error={form.errorOf('otp')}
          destination={sentTo.destination}
          resendRemaining={timers.resendRemaining}
          expiresRemaining={timers.expiresRemaining}
          isResending={send.isPending}
          onResend={() => {
            form.clearMessage('otp');
            send.mutate(sentTo);
          }}
        />
        <Checkbox
          label={t('login.rememberMe')}
          checked={values.rememberMe}
          onChange={(event) => {
            form.setField('rememberMe', event.currentTarget.checked);
          }}
        />
        <Button type="submit" size="md" fullWidth loading={verify.isPending} disabled={needsNewCode}>
          {t('otp.verify')}
        </Button>
        <Group justify="center">
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() => {
              send.reset();
              verify.reset();
              form.clearMessage('otp');
              setSentTo(null);
            }}
          >
            {t('otp.changeDestination')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
