import { useId, useState } from 'react';
import {
  Alert,
  Badge,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  checkPassword,
  parsePasswordRule,
  passwordRuleSchema,
  type PasswordRule,
  type TenantDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { PasswordChecklist } from '../auth/password-checklist';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import { settingValues } from './tenant-settings-model';
import { updateTenantSettings } from './tenants-api';
import { useTenantSaved } from './use-tenant-saved';

/**
 * The rule as the contract takes it, plus the two checks PASSWORD_RULE adds (tenant-settings.ts),
 * each on the field to fix rather than on the whole rule.
 */
const ruleFormSchema = passwordRuleSchema.strict().superRefine((rule, context) => {
  if (rule.minLength > rule.maxLength)
    context.addIssue({ code: 'custom', path: ['maxLength'], message: 'tenants:security.maxBelowMin' });
  if (/[A-Za-z0-9\s]/.test(rule.special))
    context.addIssue({ code: 'custom', path: ['special'], message: 'tenants:security.specialSymbols' });
});

interface RuleValues {
  minLength: number | string;
  maxLength: number | string;
  lower: boolean;
  upper: boolean;
  digit: boolean;
  special: string;
}

/** The form's values as a rule, when they make one (the live example then follows the draft). */
function draftRule(values: RuleValues): PasswordRule | null {
  const parsed = ruleFormSchema.safeParse(values);
  return parsed.success ? parsed.data : null;
}

function SecurityForm({
  tenant,
  example,
  onExampleChange,
}: {
  tenant: TenantDetail;
  example: string;
  onExampleChange: (value: string) => void;
}) {
  const { t } = useTranslation('tenants');
  const saved = useTenantSaved();
  const stored = parsePasswordRule(settingValues(tenant).PASSWORD_RULE);
  const form = useFormState<RuleValues>(stored);
  const { values } = form;
  const checklistId = useId();
  const rule = draftRule(values) ?? stored;
  const problems = checkPassword(example, rule);

  const save = useMutation({
    mutationFn: (next: PasswordRule) =>
      updateTenantSettings(tenant.id, { PASSWORD_RULE: JSON.stringify(next) }),
    meta: { errorDisplay: 'inline' },
    onSuccess: (detail) => {
      saved(detail);
      notifySuccess(t('security.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });

  const length = (name: 'minLength' | 'maxLength') => (
    <NumberInput
      label={t(`security.${name}`)}
      min={4}
      max={128}
      allowDecimal={false}
      allowNegative={false}
      value={values[name]}
      onChange={(value) => {
        form.setField(name, value);
      }}
      error={form.errorOf(name)}
      withAsterisk
    />
  );
  const classCheck = (name: 'lower' | 'upper' | 'digit') => (
    <Checkbox
      label={t(`security.${name}`)}
      checked={values[name]}
      onChange={(event) => {
        form.setField(name, event.currentTarget.checked);
      }}
    />
  );
  const ruleError = form.errorOf('PASSWORD_RULE');

  return (
    <TabForm
      label={t('security.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={() => {
        // NumberInput gives '' for an empty box: undefined lets the schema say "required".
        const input = {
          ...values,
          minLength: values.minLength === '' ? undefined : values.minLength,
          maxLength: values.maxLength === '' ? undefined : values.maxLength,
        };
        const parsed = validateTenantForm(form, ruleFormSchema, input);
        if (parsed) save.mutate(parsed);
      }}
    >
      {ruleError ? (
        <Alert color="red" variant="light" role="alert">
          {ruleError}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={2} fz="lg">
              {t('security.ruleTitle')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('security.ruleHint')}
            </Text>
            <Group grow align="flex-start">
              {length('minLength')}
              {length('maxLength')}
            </Group>
            <Stack gap="xs">
              <Text fz="sm" fw={500}>
                {t('security.classes')}
              </Text>
              {classCheck('lower')}
              {classCheck('upper')}
              {classCheck('digit')}
            </Stack>
            <TextInput
              label={t('security.special')}
              description={t('security.specialHint')}
              value={values.special}
              onChange={(event) => {
                form.setField('special', event.currentTarget.value);
              }}
              error={form.errorOf('special')}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={2} fz="lg">
              {t('security.exampleTitle')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('security.exampleHint')}
            </Text>
            {/* Outside the saved values: the example is never sent anywhere. */}
            <TextInput
              label={t('security.example')}
              value={example}
              onChange={(event) => {
                onExampleChange(event.currentTarget.value);
              }}
              aria-describedby={checklistId}
              autoComplete="off"
              spellCheck={false}
              rightSectionWidth={110}
              rightSection={
                example === '' ? null : (
                  <Badge
                    color={problems.length === 0 ? 'teal' : 'red'}
                    variant="light"
                    data-testid="example-verdict"
                  >
                    {problems.length === 0 ? t('security.accepted') : t('security.refused')}
                  </Badge>
                )
              }
            />
            <PasswordChecklist password={example} rule={rule} id={checklistId} />
          </Stack>
        </Paper>
      </SimpleGrid>
    </TabForm>
  );
}

/** Security tab: the tenant's password rule (spec §5), with a live check of an example password. */
export function SecurityTab({ tenant }: { tenant: TenantDetail }) {
  // Kept here, not in the form: saving remounts the form with the stored rule, and the example
  // should stay to show that rule's verdict.
  const [example, setExample] = useState('');
  return (
    <SecurityForm
      key={JSON.stringify(tenant.settings)}
      tenant={tenant}
      example={example}
      onExampleChange={setExample}
    />
  );
}
