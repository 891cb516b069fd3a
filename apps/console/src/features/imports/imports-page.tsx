import { Stack, Tabs, Text, Title } from '@mantine/core';
import { importKindsAllowed, type ImportKindCode } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePermissions } from '../shell/permissions';
import { usePageTitle } from '../shell/use-page-title';
import { ImportHistory } from './import-history';
import { ImportPanel } from './import-panel';

/**
 * Bulk imports (spec §2: patient bulk import from .xlsx with an error file, device import): one tab
 * per kind the user may import (user.import: patients, device.import: devices), chosen by ?kind=.
 */
export function ImportsPage() {
  const { t } = useTranslation('imports');
  usePageTitle(t('page.title'));
  const { permissions } = usePermissions();
  const kinds = importKindsAllowed(permissions);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('kind');
  const kind: ImportKindCode = kinds.find((item) => item === requested) ?? kinds[0] ?? 'PATIENT';

  return (
    <Stack gap="lg" maw={1280}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('page.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('page.subtitle')}
        </Text>
      </Stack>
      <Tabs
        value={kind}
        onChange={(value) => {
          if (value !== null) setSearchParams({ kind: value }, { replace: true });
        }}
        keepMounted={false}
        variant="outline"
      >
        <Tabs.List aria-label={t('page.kindsLabel')}>
          {kinds.map((item) => (
            <Tabs.Tab key={item} value={item}>
              {t(`kinds.${item}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {kinds.map((item) => (
          <Tabs.Panel key={item} value={item} pt="lg">
            <Stack gap="xl">
              <ImportPanel kind={item} />
              <ImportHistory kind={item} />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
