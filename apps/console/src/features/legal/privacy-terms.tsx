import { Box, Container, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicHeader } from '../shell/public-header';
import { usePageTitle } from '../shell/use-page-title';

/** Section order of the policy; the text of each lives in the i18n catalogue (privacy.sections). */
const SECTIONS = [
  'about',
  'dataWeCollect',
  'howWeUse',
  'sharing',
  'storage',
  'security',
  'retention',
  'rights',
  'age',
  'changes',
  'law',
  'contact',
] as const;

/** Sections that end with a bulleted list (`items`, one item per line). */
const SECTIONS_WITH_LIST = ['dataWeCollect', 'howWeUse', 'rights'] as const;
type SectionWithList = (typeof SECTIONS_WITH_LIST)[number];
const hasList = (id: string): id is SectionWithList => (SECTIONS_WITH_LIST as readonly string[]).includes(id);

function splitText(text: string, separator: RegExp): string[] {
  return text
    .split(separator)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The privacy terms (spec §9: effective 3 November 2021, Vietnamese law, 18 and over). */
export function PrivacyTerms() {
  const { t } = useTranslation('legal');
  usePageTitle(t('privacy.pageTitle'));
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap={4}>
        <Title order={1} fz={28}>
          {t('privacy.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('privacy.effective')}
        </Text>
      </Stack>
      <Text>{t('privacy.intro')}</Text>
      {SECTIONS.map((id, index) => {
        // Catalogue format: paragraphs separated by a blank line, list items by a line break.
        const paragraphs = splitText(t(`privacy.sections.${id}.paragraphs`), /\n\s*\n/);
        const items = hasList(id) ? splitText(t(`privacy.sections.${id}.items`), /\n/) : [];
        return (
          <Box component="section" key={id} aria-labelledby={`privacy-${id}`}>
            <Title order={2} fz={19} id={`privacy-${id}`} mb="xs">
              {`${String(index + 1)}. ${t(`privacy.sections.${id}.title`)}`}
            </Title>
            <Stack gap="xs">
              {paragraphs.map((paragraph) => (
                <Text key={paragraph}>{paragraph}</Text>
              ))}
              {items.length > 0 ? (
                <List spacing={4} withPadding>
                  {items.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              ) : null}
            </Stack>
          </Box>
        );
      })}
    </Stack>
  );
}

/** /privacy: readable without signing in, linked from the login page. */
export function PrivacyPage() {
  return (
    <Box mih="100vh" bg="gray.0">
      <PublicHeader />
      <Container component="main" size={900} py={{ base: 'md', xs: 'xl' }} px={{ base: 'xs', xs: 'md' }}>
        <Paper withBorder radius="lg" p={{ base: 'md', xs: 40 }}>
          <PrivacyTerms />
        </Paper>
      </Container>
    </Box>
  );
}
