import { useState, type SubmitEvent } from 'react';
import {
  Alert,
  Button,
  ColorInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { LANGUAGES, tenantRequestFormSchema, type Language, type TenantRequestForm } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { currentLanguage } from '../../i18n';
import type { FieldMessages } from '../../lib/form-errors';
import { messageText } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { logoProblem, type LogoProblem } from '../tenants/logo-file';
import { suggestTenantCode } from '../tenants/tenant-code';
import { tenantMessagesForIssues } from '../tenants/tenant-form-errors';
import { LogoPicker } from './logo-picker';
import { submitTrialRequest } from './trial-request-api';

type LogoField = 'logoSquare' | 'logoHorizontal';
type TextField = Exclude<keyof TenantRequestForm, 'language'>;

interface TrialValues extends Record<TextField, string> {
  language: Language;
  logoSquare: File | null;
  logoHorizontal: File | null;
}

/** The server names the tenant's fields; this form names them after the request. */
const SERVER_RENAME = { name: 'organizationName', code: 'requestedCode' };
/** Optional fields whose rule is "empty, or …": zod reports a union, which should read as the rule. */
const UNION_MESSAGES: Record<string, FieldMessages[string]> = {
  phone: { key: 'form.phoneInvalid' },
  primaryColor: { key: 'tenants:form.color' },
};

export function TrialRequestForm({
  onSubmitted,
}: {
  onSubmitted: (request: { organization: string; email: string }) => void;
}) {
  const { t } = useTranslation('tenants');
  const [isCodeTyped, setIsCodeTyped] = useState(false);
  const [problems, setProblems] = useState<Record<LogoField, LogoProblem | null>>({
    logoSquare: null,
    logoHorizontal: null,
  });
  const form = useFormState<TrialValues>({
    organizationName: '',
    officialName: '',
    requestedCode: '',
    requesterName: '',
    email: '',
    phone: '',
    primaryColor: '',
    message: '',
    language: currentLanguage(),
    logoSquare: null,
    logoHorizontal: null,
  });
  const { values } = form;

  const submit = useMutation({
    mutationFn: submitTrialRequest,
    meta: { errorDisplay: 'inline' },
    onSuccess: (_answer, request) => {
      onSubmitted({ organization: request.form.organizationName, email: request.form.email });
    },
    onError: (error) => {
      form.showServerErrors(error, SERVER_RENAME);
    },
  });

  /** Checks a logo as soon as it is chosen: PNG by its first bytes, at most 1 MB. */
  const chooseLogo = async (field: LogoField, file: File | null) => {
    form.setField(field, file);
    const problem = file ? await logoProblem(file, 'png') : null;
    setProblems((current) => ({ ...current, [field]: problem }));
    if (problem) form.setMessage(field, { key: `tenants:branding.problems.${problem}` });
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    const { logoSquare, logoHorizontal, ...text } = values;
    const parsed = tenantRequestFormSchema.safeParse(text);
    const messages = parsed.success ? {} : tenantMessagesForIssues(parsed.error.issues, text);
    for (const [field, message] of Object.entries(UNION_MESSAGES))
      if (messages[field] && 'key' in messages[field] && messages[field].key === 'form.chooseOne')
        messages[field] = message;
    for (const field of ['logoSquare', 'logoHorizontal'] as const) {
      const problem = problems[field];
      if (!values[field]) messages[field] = { key: 'tenants:trial.logoRequired' };
      else if (problem) messages[field] = { key: `tenants:branding.problems.${problem}` };
    }
    form.clearMessages();
    for (const [field, message] of Object.entries(messages)) form.setMessage(field, message);
    if (parsed.success && logoSquare && logoHorizontal && Object.keys(messages).length === 0)
      submit.mutate({ form: parsed.data, logoSquare, logoHorizontal });
  };

  const text = (
    name: TextField,
    options: { required?: boolean; description?: string; type?: string } = {},
  ) => (
    <TextInput
      label={t(`trial.${name}`)}
      description={options.description}
      type={options.type}
      withAsterisk={options.required}
      value={values[name]}
      onChange={(event) => {
        const next = event.currentTarget.value;
        form.setField(name, next);
        if (name === 'organizationName' && !isCodeTyped)
          form.setField('requestedCode', suggestTenantCode(next));
        if (name === 'requestedCode') setIsCodeTyped(next !== '');
      }}
      error={form.errorOf(name)}
    />
  );
  const hasFieldErrors = isApiError(submit.error) && submit.error.fieldErrors.length > 0;

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('trial.formLabel')}>
      <Stack gap="lg">
        {submit.isError && !hasFieldErrors ? (
          <Alert color="red" variant="light" role="alert" title={t('trial.failed')} data-testid="trial-error">
            {messageText(errorMessageFor(submit.error))}
          </Alert>
        ) : null}
        <Title order={2} fz="md">
          {t('trial.organizationSection')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {text('organizationName', { required: true })}
          {text('officialName')}
          {text('requestedCode', { required: true, description: t('create.codeHint') })}
          <ColorInput
            label={t('trial.primaryColor')}
            description={t('trial.primaryColorHint')}
            eyeDropperButtonProps={{ 'aria-label': t('branding.eyeDropper') }}
            format="hex"
            value={values.primaryColor}
            onChange={(value) => {
              form.setField('primaryColor', value);
            }}
            error={form.errorOf('primaryColor')}
          />
        </SimpleGrid>
        <LogoPicker
          label={t('branding.kinds.square')}
          description={t('trial.logoSquareHint')}
          value={values.logoSquare}
          onChange={(file) => void chooseLogo('logoSquare', file)}
          error={form.errorOf('logoSquare')}
          frame={{ width: 72, height: 72 }}
        />
        <LogoPicker
          label={t('branding.kinds.horizontal')}
          description={t('trial.logoHorizontalHint')}
          value={values.logoHorizontal}
          onChange={(file) => void chooseLogo('logoHorizontal', file)}
          error={form.errorOf('logoHorizontal')}
          frame={{ width: 200, height: 72 }}
        />
        <Title order={2} fz="md">
          {t('trial.contactSection')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          {text('requesterName', { required: true })}
          {text('email', { required: true, type: 'email' })}
          {text('phone')}
          <Select
            label={t('trial.language')}
            description={t('trial.languageHint')}
            data={LANGUAGES.map((code) => ({ value: code, label: t(`languages.${code}`) }))}
            value={values.language}
            onChange={(value) => {
              const language = LANGUAGES.find((code) => code === value);
              if (language) form.setField('language', language);
            }}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Textarea
          label={t('trial.message')}
          value={values.message}
          onChange={(event) => {
            form.setField('message', event.currentTarget.value);
          }}
          error={form.errorOf('message')}
          autosize
          minRows={3}
          maxRows={8}
        />
        <Button type="submit" size="md" loading={submit.isPending}>
          {t('trial.submit')}
        </Button>
      </Stack>
    </form>
  );
}
