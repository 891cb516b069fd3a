import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { staffDetailQuery } from './staff-api';
import { StaffForm } from './staff-form';

/** /<area>/staff/new (?role= preselects the open list's role) and /<area>/staff/:staffId/edit. */
export function StaffFormPage() {
  const { t } = useTranslation('org');
  const { staffId } = useParams();
  const [searchParams] = useSearchParams();
  const isNew = staffId === undefined;
  const staff = useQuery({ ...staffDetailQuery(staffId ?? ''), enabled: !isNew });
  const title = isNew
    ? t('staff.form.createTitle')
    : t('staff.form.editTitle', { name: staff.data?.fullName ?? '' });
  usePageTitle(title);
  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={2}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {isNew ? t('staff.backToList') : t('staff.backToStaff')}
        </Anchor>
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text c="dimmed" fz="sm">
          {isNew ? t('staff.form.introCreate') : t('staff.form.introEdit')}
        </Text>
      </Stack>
      {isNew ? <StaffForm staff={null} initialRole={searchParams.get('role')} /> : null}
      {!isNew && staff.isPending ? <LoadingState /> : null}
      {staff.isError ? (
        <ErrorState
          error={staff.error}
          title={t('staff.detailLoadFailed')}
          onRetry={() => void staff.refetch()}
        />
      ) : null}
      {staff.isSuccess ? <StaffForm key={staff.data.id} staff={staff.data} initialRole={null} /> : null}
    </Stack>
  );
}
