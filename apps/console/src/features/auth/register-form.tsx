import { useId, type SubmitEvent } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Select,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { REGISTRATION_PURPOSES, registerSchema, tenantCodeSchema } from '@rpm/contracts';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { isApiError } from '../../api/api-error';
import { fieldOfError } from '../../lib/form-errors';
import { errorMessageFor } from '../../api/error-reaction';
import { displayDateForSchema } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { DateField } from '../shell/date-field';
import { NewPasswordFields } from './new-password-fields';
import { addNewPasswordIssues, ALWAYS_REFINE, usePasswordRule } from './password-rule';
import { TenantField } from './tenant-field';
import { register, type RegistrationRequest } from './verification-api';

type Purpose = (typeof REGISTRATION_PURPOSES)[number];
type RegisterRole = 'PATIENT' | 'DOCTOR';

interface RegisterValues {
  tenant: string;
  role: RegisterRole;
  purpose: Purpose | null;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  birthday: string;
  password: string;
  confirmation: string;
  acceptTerms: boolean;
  acceptPrivacy: boolean;
}

/** Server answers that belong to one field rather than to the whole form. */
const FIELD_OF_CODE: Partial<Record<string, keyof RegisterValues>> = {
  'account.emailExists': 'email',
  'account.phoneExists': 'phone',
  'account.underage': 'birthday',
};

/** What the verification step needs to know about the registration just sent. */
export interface Registered {
  request: RegistrationRequest & { tenant: string };
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** The registration form (spec §2 register and doctor registration, §5 rules, §8 messages). */
export function RegisterForm({ onRegistered }: { onRegistered: (registered: Registered) => void }) {
  const { t } = useTranslation();
  const rule = usePasswordRule();
  const roleLabelId = useId();
  const form = useFormState<RegisterValues>({
    tenant: '',
    role: 'PATIENT',
    purpose: null,
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    birthday: '',
    password: '',
    confirmation: '',
    acceptTerms: false,
    acceptPrivacy: false,
  });
  const { values } = form;

  // The API's schema, with the tenant required (the console has no default tenant) and the confirmation added.
  const schema = registerSchema
    .extend({ tenant: tenantCodeSchema, confirmation: z.string() })
    .superRefine((value, context) => {
      addNewPasswordIssues(context, rule, {
        password: value.password,
        confirmation: value.confirmation,
        passwordPath: 'password',
        confirmationPath: 'confirmation',
      });
    }, ALWAYS_REFINE);

  const mutation = useMutation({
    mutationFn: (request: RegistrationRequest & { tenant: string }) => register(request),
    meta: { errorDisplay: 'inline' },
    onSuccess: (answer, request) => {
      onRegistered({
        request,
        resendAfterSeconds: answer.resendAfterSeconds,
        expiresInSeconds: answer.expiresInSeconds,
      });
    },
    onError: (error) => {
      const field = fieldOfError(error, FIELD_OF_CODE);
      if (field) form.setMessage(field, { text: messageText(errorMessageFor(error)) });
      else form.showServerErrors(error);
    },
  });

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = form.validate(schema, {
      ...values,
      purpose: values.purpose ?? undefined,
      phone: values.phone.trim() === '' ? undefined : values.phone.replace(/[\s().-]/g, ''),
      birthday: displayDateForSchema(values.birthday),
    });
    if (!parsed || mutation.isPending) return;
    const { confirmation: _confirmation, ...request } = parsed;
    mutation.mutate(request);
  };

  const errorCode = isApiError(mutation.error) ? mutation.error.code : undefined;
  const isFieldAnswer = errorCode !== undefined && FIELD_OF_CODE[errorCode] !== undefined;
  const text = (name: keyof RegisterValues) => ({
    value: values[name] as string,
    error: form.errorOf(name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      form.setField(name, event.currentTarget.value);
    },
  });

  return (
    <form ref={form.formRef} onSubmit={onSubmit} noValidate aria-label={t('register.formLabel')}>
      <Stack gap="md">
        {mutation.isError && (!isFieldAnswer || errorCode === 'account.emailExists') ? (
          <Alert color="red" variant="light" role="alert" title={t('register.failedTitle')}>
            <Stack gap={6} align="flex-start">
              <Text fz="sm">{messageText(errorMessageFor(mutation.error))}</Text>
              {errorCode === 'account.emailExists' ? (
                <Anchor component={Link} to="/login" fz="sm" fw={600}>
                  {t('register.goToLogin')}
                </Anchor>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <TenantField
          value={values.tenant}
          error={form.errorOf('tenant')}
          onChange={(value) => {
            form.setField('tenant', value);
          }}
        />
        <Stack gap={4}>
          <Text component="div" fz="sm" fw={500} id={roleLabelId}>
            {t('register.role')}
          </Text>
          <SegmentedControl
            fullWidth
            aria-labelledby={roleLabelId}
            value={values.role}
            onChange={(value) => {
              form.setField('role', value === 'DOCTOR' ? 'DOCTOR' : 'PATIENT');
            }}
            data={[
              { value: 'PATIENT', label: t('register.rolePatient') },
              { value: 'DOCTOR', label: t('register.roleDoctor') },
            ]}
          />
          {values.role === 'DOCTOR' ? (
            <Text fz="xs" c="dimmed" data-testid="doctor-approval-note">
              {t('register.doctorNote')}
            </Text>
          ) : null}
        </Stack>
        <Select
          label={t('register.purpose')}
          placeholder={t('register.purposePlaceholder')}
          data={REGISTRATION_PURPOSES.map((purpose) => ({
            value: purpose,
            label: t(`register.purposes.${purpose}`),
          }))}
          value={values.purpose}
          onChange={(value) => {
            form.setField('purpose', REGISTRATION_PURPOSES.find((purpose) => purpose === value) ?? null);
          }}
          error={form.errorOf('purpose')}
          allowDeselect={false}
          withAsterisk
        />
        <SimpleGrid cols={2} spacing="md">
          <TextInput
            label={t('profile.firstName')}
            autoComplete="given-name"
            withAsterisk
            {...text('firstName')}
          />
          <TextInput
            label={t('profile.lastName')}
            autoComplete="family-name"
            withAsterisk
            {...text('lastName')}
          />
          <TextInput
            label={t('profile.email')}
            type="email"
            autoComplete="email"
            withAsterisk
            {...text('email')}
          />
          <TextInput label={t('profile.phoneOptional')} type="tel" autoComplete="tel" {...text('phone')} />
          <DateField
            label={t('profile.birthday')}
            description={t('register.birthdayHint')}
            value={values.birthday}
            error={form.errorOf('birthday')}
            onChange={(value) => {
              form.setField('birthday', value);
            }}
            autoComplete="bday"
            isRequired
          />
        </SimpleGrid>
        <NewPasswordFields
          password={values.password}
          confirmation={values.confirmation}
          rule={rule}
          passwordLabel={t('login.password')}
          passwordError={form.errorOf('password')}
          confirmationError={form.errorOf('confirmation')}
          onPasswordChange={(value) => {
            form.setField('password', value);
          }}
          onConfirmationChange={(value) => {
            form.setField('confirmation', value);
          }}
        />
        <Stack gap="xs">
          <Checkbox
            checked={values.acceptTerms}
            onChange={(event) => {
              form.setField('acceptTerms', event.currentTarget.checked);
            }}
            error={form.errorOf('acceptTerms')}
            label={
              <Trans
                t={t}
                i18nKey="register.acceptTerms"
                components={{ terms: <Anchor component={Link} to="/terms" target="_blank" inherit /> }}
              />
            }
          />
          <Checkbox
            checked={values.acceptPrivacy}
            onChange={(event) => {
              form.setField('acceptPrivacy', event.currentTarget.checked);
            }}
            error={form.errorOf('acceptPrivacy')}
            label={
              <Trans
                t={t}
                i18nKey="register.acceptPrivacy"
                components={{ privacy: <Anchor component={Link} to="/privacy" target="_blank" inherit /> }}
              />
            }
          />
        </Stack>
        <Group justify="space-between" align="center">
          <Text fz="sm" c="dimmed">
            {t('register.haveAccount')}{' '}
            <Anchor component={Link} to="/login" fz="sm">
              {t('register.goToLogin')}
            </Anchor>
          </Text>
          <Button type="submit" size="md" loading={mutation.isPending}>
            {t('register.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
