import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { rememberedTenant } from '../../api/session-store';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { AuthLayout } from './auth-layout';
import { resetPassword, sendResetCode } from './auth-api';
import { PasswordProblems } from './password-problems';
import { appPasswordProblems, isOtpCode, normaliseTenantCode } from './rules';
import { TenantField } from './tenant-field';

type Step = 'send' | 'reset' | 'done';

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('send');
  const [tenant, setTenant] = useState(rememberedTenant);
  const [username, setUsername] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const tenantCode = normaliseTenantCode(tenant);
    const found: Record<string, string> = {};
    if (tenantCode === undefined) found.tenant = t('tenant.required');
    if (username.trim() === '') found.username = t('login.usernameRequired');
    if (step === 'reset' && !isOtpCode(code)) found.code = t('otp.codeInvalid');
    if (step === 'reset' && appPasswordProblems(password).length > 0) found.password = t('password.rule');
    setErrors(found);
    if (Object.keys(found).length > 0 || tenantCode === undefined) return;
    setBusy(true);
    setFailure(undefined);
    const work = step === 'send'
      ? sendResetCode(tenantCode, username.trim()).then(() => { setStep('reset'); })
      : resetPassword({ tenant: tenantCode, username: username.trim(), otp: code, newPassword: password }).then(() => { setStep('done'); });
    void work.catch((error: unknown) => { setFailure(errorMessage(error)); }).finally(() => { setBusy(false); });
  };

  return (
    <AuthLayout title={t('forgot.title')}>
      {step === 'done' ? (
        <Alert tone="info">{t('forgot.done')}</Alert>
      ) : (
        <form noValidate onSubmit={submit}>
          <TenantField value={tenant} onChange={setTenant} error={errors.tenant} />
          <TextField label={t('forgot.username')} autoComplete="username" autoCapitalize="none" value={username} error={errors.username} disabled={step === 'reset'} onChange={(e) => { setUsername(e.target.value); }} />
          {step === 'reset' ? (
            <>
              <Alert tone="info">{t('otp.sent', { destination: username.trim() })}</Alert>
              <TextField label={t('forgot.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} error={errors.code} onChange={(e) => { setCode(e.target.value.replace(/\D/g, '')); }} />
              <TextField label={t('forgot.newPassword')} type="password" autoComplete="new-password" hint={t('password.rule')} value={password} error={errors.password} onChange={(e) => { setPassword(e.target.value); }} />
              <PasswordProblems password={password} />
            </>
          ) : null}
          {failure ? <Alert>{failure}</Alert> : null}
          <button className="primary" type="submit" disabled={busy}>{step === 'send' ? t('forgot.send') : t('forgot.submit')}</button>
        </form>
      )}
      <nav className="links"><Link to="/login">{t('register.backToLogin')}</Link></nav>
    </AuthLayout>
  );
}
