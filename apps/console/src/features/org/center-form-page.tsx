import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOrgReach } from '../levels/use-org-reach';
import { ErrorState, LoadingState } from '../shell/query-states';
import { ForbiddenPage } from '../shell/forbidden-page';
import { usePageTitle } from '../shell/use-page-title';
import { CenterForm } from './center-form';
import { centerDetailQuery } from './centers-api';

/** /<area>/health-centers/new and /:centerId/edit. Creating needs a caller who sees the whole tenant. */
export function CenterFormPage() {
  const { t } = useTranslation('org');
  const { centerId } = useParams();
  const isNew = centerId === undefined;
  const reach = useOrgReach();
  const center = useQuery({
    ...centerDetailQuery(centerId ?? '', reach.isWholeTenant),
    enabled: !isNew && reach.options.isSuccess,
  });
  const title = isNew
    ? t('centers.form.createTitle')
    : t('centers.form.editTitle', { name: center.data?.name ?? '' });
  usePageTitle(title);
  if (isNew && reach.options.isSuccess && !reach.isWholeTenant) return <ForbiddenPage />;

  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={2}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {isNew ? t('centers.backToList') : t('centers.backToCenter')}
        </Anchor>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed" fz="sm">
          {reach.isWholeTenant ? t('centers.form.intro') : t('centers.form.introDetails')}
        </Text>
      </Stack>
      {reach.options.isPending || (!isNew && center.isPending) ? <LoadingState /> : null}
      {reach.options.isError ? (
        <ErrorState
          error={reach.options.error}
          title={t('reach.loadFailed')}
          onRetry={() => void reach.options.refetch()}
        />
      ) : null}
      {center.isError ? (
        <ErrorState
          error={center.error}
          title={t('centers.detailLoadFailed')}
          onRetry={() => void center.refetch()}
        />
      ) : null}
      {isNew && reach.options.isSuccess ? <CenterForm mode={{ kind: 'create' }} /> : null}
      {center.isSuccess ? (
        <CenterForm
          key={center.data.id}
          mode={
            reach.isWholeTenant
              ? { kind: 'edit', center: center.data }
              : { kind: 'details', center: center.data }
          }
        />
      ) : null}
    </Stack>
  );
}
