import { useRef, useState } from 'react';
import {
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  EMAIL_TEMPLATE_KEYS,
  EMAIL_TEMPLATE_PLACEHOLDERS,
  emailTemplateInputSchema,
  LANGUAGES,
  type EmailTemplate,
  type EmailTemplateKey,
  type Language,
  type TenantDetail,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../lib/notify';
import { useFormState } from '../../lib/use-form-state';
import { ErrorState, LoadingState } from '../shell/query-states';
import { EmailPreview } from './email-preview';
import { TabForm } from './tab-form';
import { validateTenantForm } from './tenant-form-errors';
import { emailTemplateQuery, saveEmailTemplate } from './tenants-api';

function TemplateEditor({ tenant, template }: { tenant: TenantDetail; template: EmailTemplate }) {
  const { t } = useTranslation('tenants');
  const queryClient = useQueryClient();
  const form = useFormState({ subject: template.subject, body: template.body });
  const { values } = form;
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const save = useMutation({
    mutationFn: (input: { subject: string; body: string }) =>
      saveEmailTemplate(tenant.id, template.key, template.language, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: (stored) => {
      queryClient.setQueryData(emailTemplateQuery(tenant.id, stored.key, stored.language).queryKey, stored);
      notifySuccess(t('email.saved'));
    },
    onError: (error) => {
      form.showServerErrors(error);
    },
  });

  /** Puts a placeholder where the cursor is in the body, as if typed there. */
  const insert = (placeholder: string) => {
    const area = bodyRef.current;
    const token = `{{${placeholder}}}`;
    const start = area?.selectionStart ?? values.body.length;
    const end = area?.selectionEnd ?? start;
    form.setField('body', values.body.slice(0, start) + token + values.body.slice(end));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <TabForm
      label={t('email.formLabel')}
      formRef={form.formRef}
      isSaving={save.isPending}
      error={save.error}
      onSubmit={() => {
        const parsed = validateTenantForm(form, emailTemplateInputSchema, values);
        if (parsed) save.mutate(parsed);
      }}
    >
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Group justify="space-between">
              <Text fw={600}>{t(`email.keys.${template.key}`)}</Text>
              <Badge variant="light" color={template.isDefault ? 'gray' : 'teal'} tt="none">
                {template.isDefault ? t('email.isDefault') : t('email.isCustom')}
              </Badge>
            </Group>
            <TextInput
              label={t('email.subject')}
              value={values.subject}
              onChange={(event) => {
                form.setField('subject', event.currentTarget.value);
              }}
              error={form.errorOf('subject')}
              withAsterisk
            />
            <Textarea
              ref={bodyRef}
              label={t('email.body')}
              description={t('email.bodyHint')}
              value={values.body}
              onChange={(event) => {
                form.setField('body', event.currentTarget.value);
              }}
              error={form.errorOf('body')}
              autosize
              minRows={8}
              maxRows={20}
              withAsterisk
            />
            <Stack gap={4}>
              <Text fz="sm" fw={500}>
                {t('email.placeholders')}
              </Text>
              <Table withRowBorders={false} verticalSpacing={2} fz="xs">
                <Table.Tbody>
                  {EMAIL_TEMPLATE_PLACEHOLDERS.map((name) => (
                    <Table.Tr key={name}>
                      <Table.Td w={150}>
                        <Button
                          variant="subtle"
                          size="compact-xs"
                          onClick={() => {
                            insert(name);
                          }}
                          aria-label={t('email.insert', { placeholder: `{{${name}}}` })}
                        >
                          <Code>{`{{${name}}}`}</Code>
                        </Button>
                      </Table.Td>
                      <Table.Td c="dimmed">{t(`email.placeholderHelp.${name}`)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          </Stack>
        </Paper>
        <EmailPreview
          tenantId={tenant.id}
          templateKey={template.key}
          language={template.language}
          subject={values.subject}
          body={values.body}
        />
      </SimpleGrid>
    </TabForm>
  );
}

/** Email templates tab: pick a template and language, word it, see the server's rendering. */
export function EmailTemplatesTab({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation('tenants');
  const [key, setKey] = useState<EmailTemplateKey>('WELCOME');
  const [language, setLanguage] = useState<Language>('en');
  const template = useQuery(emailTemplateQuery(tenant.id, key, language));

  return (
    <Stack gap="lg">
      <Group gap="md" align="flex-end">
        <Select
          label={t('email.template')}
          data={EMAIL_TEMPLATE_KEYS.map((value) => ({ value, label: t(`email.keys.${value}`) }))}
          value={key}
          onChange={(value) => {
            const next = EMAIL_TEMPLATE_KEYS.find((item) => item === value);
            if (next) setKey(next);
          }}
          allowDeselect={false}
          w={280}
        />
        <Select
          label={t('email.language')}
          data={LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`) }))}
          value={language}
          onChange={(value) => {
            const next = LANGUAGES.find((item) => item === value);
            if (next) setLanguage(next);
          }}
          allowDeselect={false}
          w={180}
        />
      </Group>
      {template.isPending ? <LoadingState /> : null}
      {template.isError ? (
        <ErrorState
          error={template.error}
          title={t('email.loadFailed')}
          onRetry={() => void template.refetch()}
        />
      ) : null}
      {template.isSuccess ? (
        <TemplateEditor
          key={`${key}-${language}-${template.dataUpdatedAt}`}
          tenant={tenant}
          template={template.data}
        />
      ) : null}
    </Stack>
  );
}
