import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { REGISTRATION_PURPOSES } from '@rpm/contracts';
import { rememberedTenant } from '../../api/session-store';
import { errorMessage } from '../../ui/error-message';
import { Alert, Checkbox, TextField } from '../../ui/kit';
import { AuthLayout } from './auth-layout';
import { register, verifyRegistration } from './auth-api';
import { PasswordProblems } from './password-problems';
import { appPasswordProblems, isAdult, isOtpCode, normaliseTenantCode } from './rules';
import { TenantField } from './tenant-field';

type Step = 'form' | 'code' | 'done';

export function RegisterPage() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>('form');
  const [form, setForm] = useState({
    tenant: rememberedTenant(), firstName: '', lastName: '', email: '', birthday: '', password: '', confirm: '',
    purpose: '', terms: false, privacy: false,
  });
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof typeof form>(key: K) => (value: (typeof form)[K]) => { setForm((old) => ({ ...old, [key]: value })); };

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

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const tenant = normaliseTenantCode(form.tenant);
    if (step === 'code') {
      if (!isOtpCode(code) || tenant === undefined) { setErrors({ code: t('otp.codeInvalid') }); return; }
      void run(async () => {
        await verifyRegistration({ tenant, email: form.email.trim(), token: code });
        setStep('done');
      });
      return;
    }
    const found: Record<string, string> = {};
    const required = t('register.required');
    if (tenant === undefined) found.tenant = t('tenant.required');
    if (form.firstName.trim() === '') found.firstName = required;
    if (form.lastName.trim() === '') found.lastName = required;
    if (form.email.trim() === '') found.email = required;
    if (!isAdult(form.birthday)) found.birthday = t('register.adultOnly');
    if (appPasswordProblems(form.password).length > 0) found.password = t('password.rule');
    if (form.confirm !== form.password) found.confirm = t('register.passwordsDiffer');
    if (form.purpose === '') found.purpose = required;
    if (!form.terms) found.terms = t('register.mustAccept');
    if (!form.privacy) found.privacy = t('register.mustAccept');
    setErrors(found);
    if (Object.keys(found).length > 0 || tenant === undefined) return;
    void run(async () => {
      await register({
        tenant, firstName: form.firstName.trim(), lastName: form.lastName.trim(), email: form.email.trim(),
        birthday: form.birthday, password: form.password, purpose: form.purpose,
      });
      setStep('code');
    });
  };

  if (step === 'done') {
    return (
      <AuthLayout title={t('register.title')}>
        <Alert tone="info">{t('register.done')}</Alert>
        <Link className="button primary" to="/login">{t('register.backToLogin')}</Link>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('register.title')}>
      <form noValidate onSubmit={submit}>
        {step === 'form' ? (
          <>
            <TenantField value={form.tenant} onChange={set('tenant')} error={errors.tenant} />
            <TextField label={t('register.firstName')} autoComplete="given-name" value={form.firstName} error={errors.firstName} onChange={(e) => { set('firstName')(e.target.value); }} />
            <TextField label={t('register.lastName')} autoComplete="family-name" value={form.lastName} error={errors.lastName} onChange={(e) => { set('lastName')(e.target.value); }} />
            <TextField label={t('register.email')} type="email" autoComplete="email" value={form.email} error={errors.email} onChange={(e) => { set('email')(e.target.value); }} />
            <TextField label={t('register.birthday')} type="date" autoComplete="bday" value={form.birthday} error={errors.birthday} onChange={(e) => { set('birthday')(e.target.value); }} />
            <TextField label={t('register.password')} type="password" autoComplete="new-password" hint={t('password.rule')} value={form.password} error={errors.password} onChange={(e) => { set('password')(e.target.value); }} />
            <PasswordProblems password={form.password} />
            <TextField label={t('register.confirmPassword')} type="password" autoComplete="new-password" value={form.confirm} error={errors.confirm} onChange={(e) => { set('confirm')(e.target.value); }} />
            <div className="field">
              <label htmlFor="purpose">{t('register.purpose')}</label>
              <select id="purpose" value={form.purpose} aria-invalid={errors.purpose ? true : undefined} onChange={(e) => { set('purpose')(e.target.value); }}>
                <option value="" />
                {REGISTRATION_PURPOSES.map((purpose) => <option key={purpose} value={purpose}>{t(`register.purposes.${purpose}`)}</option>)}
              </select>
              {errors.purpose ? <p className="field-error">{errors.purpose}</p> : null}
            </div>
            <Checkbox label={t('register.acceptTerms')} checked={form.terms} onChange={set('terms')} error={errors.terms} />
            <Checkbox label={t('register.acceptPrivacy')} checked={form.privacy} onChange={set('privacy')} error={errors.privacy} />
          </>
        ) : (
          <TextField label={t('register.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} error={errors.code} onChange={(e) => { setCode(e.target.value.replace(/\D/g, '')); }} />
        )}
        {failure ? <Alert>{failure}</Alert> : null}
        <button className="primary" type="submit" disabled={busy}>{step === 'form' ? t('register.submit') : t('register.verify')}</button>
      </form>
      <nav className="links"><Link to="/login">{t('register.backToLogin')}</Link></nav>
    </AuthLayout>
  );
}
