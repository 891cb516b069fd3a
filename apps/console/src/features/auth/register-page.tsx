import { useEffect, useState, type SubmitEvent } from 'react';
import { Alert, Anchor, Button, Stack, Stepper, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { verifyRegisterSchema } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { usePageTitle } from '../shell/use-page-title';
import { AuthLayout } from './auth-layout';
import { OtpCodeField } from './otp-code-field';
import { RegisterForm, type Registered } from './register-form';
import { useCodeTimers } from './use-code-timers';
import { CODE_ERRORS, NEEDS_NEW_CODE, sendRegistrationCode, verifyRegistration } from './verification-api';

const codeSchema = verifyRegisterSchema.pick({ token: true });

const hasCode = (error: unknown, codes: readonly string[]) =>
  isApiError(error) && error.code !== undefined && codes.includes(error.code);

/** Step 2: the code emailed to the new address; resend asks for a fresh one. */
function VerifyStep({
  registered,
  onVerified,
}: {
  registered: Registered;
  onVerified: (awaitingApproval: boolean) => void;
}) {
  const { t } = useTranslation();
  const { tenant, email } = registered.request;
  const form = useFormState({ token: '' });
  const [needsNewCode, setNeedsNewCode] = useState(false);
  const timers = useCodeTimers();
  const { onSent } = timers;

  useEffect(() => {
    onSent(registered);
  }, [onSent, registered]);

  const resend = useMutation({
    mutationFn: () => sendRegistrationCode({ tenant, email }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (sent) => {
      onSent(sent);
      setNeedsNewCode(false);
      form.setValues({ token: '' });
      form.clearMessage('token');
      notifySuccess(t('otp.resent'));
    },
  });

  const verify = useMutation({
    mutationFn: (token: string) => verifyRegistration({ tenant, email, token }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer) => {
      onVerified(answer.awaitingApproval);
    },
    onError: (error) => {
      if (!hasCode(error, CODE_ERRORS)) return;
      form.setValues({ token: '' });
      form.setMessage('token', { text: messageText(errorMessageFor(error)) });
      setNeedsNewCode(hasCode(error, NEEDS_NEW_CODE));
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (needsNewCode || verify.isPending) return;
    const parsed = form.validate(codeSchema, form.values);
    if (parsed) verify.mutate(parsed.token);
  };

  const failure = verify.isError && !hasCode(verify.error, CODE_ERRORS) ? verify.error : resend.error;
  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('register.verifyFormLabel')}>
      <Stack gap="md">
        <Text fz="sm">{t('register.verifyIntro')}</Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {messageText(errorMessageFor(failure))}
          </Alert>
        ) : null}
        <OtpCodeField
          value={form.values.token}
          onChange={(value) => {
            form.setField('token', value);
          }}
          error={form.errorOf('token')}
          destination={email}
          resendRemaining={timers.resendRemaining}
          expiresRemaining={timers.expiresRemaining}
          isResending={resend.isPending}
          onResend={() => {
            resend.mutate();
          }}
        />
        <Button type="submit" size="md" fullWidth loading={verify.isPending} disabled={needsNewCode}>
          {t('register.verify')}
        </Button>
      </Stack>
    </form>
  );
}

/** Step 3: a patient may sign in now; a doctor waits for their health center's admin (spec §5). */
function DoneStep({ awaitingApproval }: { awaitingApproval: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert
        color={awaitingApproval ? 'blue' : 'teal'}
        variant="light"
        role="status"
        title={awaitingApproval ? t('register.doneDoctorTitle') : t('register.donePatientTitle')}
        data-testid="register-done"
      >
        {awaitingApproval ? t('register.doneDoctor') : t('register.donePatient')}
      </Alert>
      <Button component={Link} to="/login" size="md" fullWidth autoFocus>
        {t('register.goToLogin')}
      </Button>
    </Stack>
  );
}

/** /register: public. Details -> verification code -> done. */
export function RegisterPage() {
  const { t } = useTranslation();
  usePageTitle(t('register.pageTitle'));
  const [registered, setRegistered] = useState<Registered | null>(null);
  const [awaitingApproval, setAwaitingApproval] = useState<boolean | null>(null);
  const active = awaitingApproval !== null ? 2 : registered ? 1 : 0;

  return (
    <AuthLayout
      title={t('register.title')}
      subtitle={t('register.subtitle')}
      width={active === 0 ? 680 : 480}
    >
      <Stepper active={active} size="xs" allowNextStepsSelect={false}>
        <Stepper.Step label={t('register.steps.details')} />
        <Stepper.Step label={t('register.steps.verify')} />
        <Stepper.Step label={t('register.steps.done')} />
      </Stepper>
      {/* Kept mounted while the code is checked, so "edit details" returns to what was typed. */}
      <div hidden={active !== 0}>
        <RegisterForm onRegistered={setRegistered} />
      </div>
      {active === 1 && registered ? (
        <VerifyStep registered={registered} onVerified={setAwaitingApproval} />
      ) : null}
      {awaitingApproval !== null ? <DoneStep awaitingApproval={awaitingApproval} /> : null}
      {active === 1 ? (
        <Anchor
          component="button"
          type="button"
          fz="sm"
          ta="center"
          onClick={() => {
            setRegistered(null);
          }}
        >
          {t('register.editDetails')}
        </Anchor>
      ) : null}
    </AuthLayout>
  );
}
