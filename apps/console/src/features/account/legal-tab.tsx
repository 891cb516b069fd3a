import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { areaPath } from '../shell/navigation';
import { useSession } from '../shell/session-context';

/** Terms and privacy: what the user accepted, one click away inside the console. */
export function LegalTab() {
  const { t } = useTranslation('account');
  const { area } = useSession();
  const documents = [
    { id: 'terms', path: 'terms', title: t('legal.termsTitle'), text: t('legal.termsText') },
    { id: 'privacy', path: 'privacy', title: t('legal.privacyTitle'), text: t('legal.privacyText') },
  ];
  return (
    <SimpleGrid cols={2} spacing="lg" maw={880}>
      {documents.map((document) => (
        <Paper key={document.id} withBorder radius="md" p="lg">
          <Stack gap="sm" align="flex-start" h="100%" justify="space-between">
            <Stack gap={6}>
              <Title order={2} fz={18}>
                {document.title}
              </Title>
              <Text fz="sm" c="dimmed">
                {document.text}
              </Text>
            </Stack>
            <Button component={Link} to={areaPath(area, document.path)} variant="light">
              {t('legal.read')}
            </Button>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
