import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicHeader } from './public-header';
import { StatusPage } from './status-page';
import { usePageTitle } from './use-page-title';

function NotFoundContent() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.pageTitle'));
  return (
    <StatusPage
      code="404"
      title={t('notFound.title')}
      description={t('notFound.description')}
      actionLabel={t('notFound.action')}
      actionTo="/"
    />
  );
}

/** Unknown address inside the shell: keeps the header and navigation around it. */
export function NotFoundInShell() {
  return <NotFoundContent />;
}

/** Unknown address outside any area; public, so it needs no session and no startup. */
export function NotFoundPage() {
  return (
    <Box mih="100vh" bg="gray.0">
      <PublicHeader />
      <Box component="main">
        <NotFoundContent />
      </Box>
    </Box>
  );
}
