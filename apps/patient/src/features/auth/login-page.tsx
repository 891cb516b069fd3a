import { useState, type SyntheticEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { rememberedTenant } from '../../api/session-store';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox, TextField } from '../../ui/kit';
import { AuthLayout } from './auth-layout';
import { SESSION_QUERY_ROOT, sendLoginCode, signIn, signInWithCode } from './auth-api';
import { isOtpCode, normaliseTenantCode } from './rules';
import { TenantField } from './tenant-field';

/** Why the last session ended, handed to the login page by the session-end listener. */
export interface LoginPageState {
  endedBecause?: 'loggedInElsewhere' | 'expired';
}

type Mode = 'password' | 'code';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ended = (useLocation().state as LoginPageState | null)?.endedBecause;
  const [mode, setMode] = useState<Mode>('password');
  const [tenant, setTenant] = useState(rememberedTenant);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [codeSentTo, setCodeSentTo] = useState<string | undefined>();
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const finish = async () => {
    await queryClient.invalidateQueries({ queryKey: [SESSION_QUERY_ROOT] });
    await navigate('/', { replace: true });
  };

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const tenantCode = normaliseTenantCode(tenant);
    const found: Record<string, string> = {};
    if (tenantCode === undefined) found.tenant = t('tenant.required');
    if (username.trim() === '') found.username = t('login.usernameRequired');
    if (mode === 'password' && password === '') found.password = t('login.passwordRequired');
    if (mode === 'code' && codeSentTo !== undefined && !isOtpCode(code)) found.code = t('otp.codeInvalid');
    setErrors(found);
    if (Object.keys(found).length > 0 || tenantCode === undefined) return;
    const destination = username.trim();
    if (mode === 'password') {
      void run(async () => {
        await signIn({ tenant: tenantCode, username: destination, password, rememberMe });
        await finish();
      });
    } else if (codeSentTo === undefined) {
      void run(async () => {
        await sendLoginCode(tenantCode, destination);
        setCodeSentTo(destination);
      });
    } else {
      void run(async () => {
        await signInWithCode({ tenant: tenantCode, destination: codeSentTo, code, rememberMe });
        await finish();
      });
    }
  };

  return (
    <AuthLayout title={t('login.title')}>
      {ended === 'loggedInElsewhere' ? <Alert>{t('auth.loggedInElsewhere', { ns: 'errors' })}</Alert> : null}
      {ended === 'expired' ? <Alert>{t('auth.unauthorized', { ns: 'errors' })}</Alert> : null}
      <div className="segmented" role="group">
        {(['password', 'code'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={mode === option}
            onClick={() => { setMode(option); setCodeSentTo(undefined); setFailure(undefined); }}
          >
            {t(option === 'password' ? 'login.byPassword' : 'login.byCode')}
          </button>
        ))}
      </div>
      <form noValidate onSubmit={submit}>
        <TenantField value={tenant} onChange={setTenant} error={errors.tenant} />
        <TextField
          label={t(mode === 'password' ? 'login.username' : 'otp.destination')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          value={username}
          error={errors.username}
          onChange={(event) => { setUsername(event.target.value); setCodeSentTo(undefined); }}
        />
        {mode === 'password' ? (
          <TextField
            label={t('login.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(event) => { setPassword(event.target.value); }}
          />
        ) : null}
        {mode === 'code' && codeSentTo !== undefined ? (
          <>
            <Alert tone="info">{t('otp.sent', { destination: codeSentTo })}</Alert>
            <TextField
              label={t('otp.code')}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              error={errors.code}
              onChange={(event) => { setCode(event.target.value.replace(/\D/g, '')); }}
            />
          </>
        ) : null}
        <Checkbox label={t('login.rememberMe')} checked={rememberMe} onChange={setRememberMe} />
        {failure ? <Alert>{failure}</Alert> : null}
        <button className="primary" type="submit" disabled={busy}>
          {mode === 'password' ? t('login.submit') : codeSentTo === undefined ? t('otp.send') : t('otp.submit')}
        </button>
      </form>
      <nav className="links">
        <Link to="/forgot-password">{t('login.forgot')}</Link>
        <Link to="/register">{t('login.register')}</Link>
        <Link to="/visitor">{t('appEntry:visitor.loginLink')}</Link>
      </nav>
    </AuthLayout>
  );
}
