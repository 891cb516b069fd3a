import { Box, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicHeader } from '../shell/public-header';
import { usePageTitle } from '../shell/use-page-title';

/** Section order of the terms of use; the text of each lives in the i18n catalogue (terms.sections). */
const SECTIONS = [
  'service',
  'accounts',
  'medical',
  'acceptableUse',
  'data',
  'availability',
  'liability',
  'law',
] as const;

/** The terms of use accepted at registration (spec §5), next to the privacy terms. */
export function TermsOfUse() {
  const { t } = useTranslation('legal');
  usePageTitle(t('terms.pageTitle'));
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap={4}>
        <Title order={1} fz={28}>
          {t('terms.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('terms.effective')}
        </Text>
      </Stack>
      <Text>{t('terms.intro')}</Text>
      {SECTIONS.map((id, index) => (
        <Box component="section" key={id} aria-labelledby={`terms-${id}`}>
          <Title order={2} fz={19} id={`terms-${id}`} mb="xs">
            {`${String(index + 1)}. ${t(`terms.sections.${id}.title`)}`}
          </Title>
          <Text>{t(`terms.sections.${id}.text`)}</Text>
        </Box>
      ))}
    </Stack>
  );
}

/** /terms: readable without signing in, linked from registration and the login page. */
export function TermsPage() {
  return (
    <Box mih="100vh" bg="gray.0">
      <PublicHeader />
      <Container component="main" size={900} py={{ base: 'md', xs: 'xl' }} px={{ base: 'xs', xs: 'md' }}>
        <Paper withBorder radius="lg" p={{ base: 'md', xs: 40 }}>
          <TermsOfUse />
        </Paper>
      </Container>
    </Box>
  );
}
