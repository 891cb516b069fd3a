import { Alert, Box, Loader, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EmailTemplateKey, Language } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { previewEmailTemplate, TENANTS_QUERY_ROOT } from './tenants-api';

/**
 * The email as it will be sent, rendered by the server with sample values while the text is
 * edited (after a pause in typing). Emails go out as plain text, so the preview shows the
 * server's `text` as text: React escapes it, nothing from the template is ever parsed as HTML.
 */
export function EmailPreview({
  tenantId,
  templateKey,
  language,
  subject,
  body,
}: {
  tenantId: string;
  templateKey: EmailTemplateKey;
  language: Language;
  subject: string;
  body: string;
}) {
  const { t } = useTranslation('tenants');
  const [draft] = useDebouncedValue({ subject, body }, 500);
  const preview = useQuery({
    queryKey: [...TENANTS_QUERY_ROOT, 'email-preview', tenantId, templateKey, language, draft],
    queryFn: () => previewEmailTemplate(tenantId, templateKey, language, draft),
    placeholderData: keepPreviousData,
    // A 400 here is the template's own mistake (an unknown placeholder), shown in the panel.
    retry: false,
    meta: { errorDisplay: 'inline' },
  });

  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      bg="gray.0"
      aria-live="polite"
      style={{ alignSelf: 'flex-start' }}
      data-testid="email-preview"
    >
      <Stack gap="sm">
        <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
          {t('email.previewTitle')} {preview.isFetching ? <Loader size={10} ml={6} /> : null}
        </Text>
        {preview.isError ? (
          <Alert color="orange" variant="light" role="alert">
            {messageText(errorMessageFor(preview.error))}
          </Alert>
        ) : null}
        {preview.data ? (
          <Paper
            withBorder
            radius="sm"
            p="md"
            bg="white"
            style={{ opacity: preview.isPlaceholderData ? 0.6 : 1 }}
          >
            <Text fz="xs" c="dimmed">
              {t('email.subject')}
            </Text>
            <Text fw={600} mb="sm" data-testid="preview-subject">
              {preview.data.subject}
            </Text>
            <Box
              component="div"
              fz="sm"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="preview-body"
            >
              {preview.data.text}
            </Box>
          </Paper>
        ) : null}
        <Text fz="xs" c="dimmed">
          {t('email.previewHint')}
        </Text>
      </Stack>
    </Paper>
  );
}
