import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ScopeDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { organisationTypeLabel } from './organisation-type-label';
import { areaPath } from '../shell/navigation';
import { InfoTile } from '../shell/info-tile';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { useOrgReach } from '../levels/use-org-reach';
import { ScopeActions } from './scope-actions';
import { ScopeAdminsDialog } from './scope-admins-dialog';
import { EnabledBadge } from './scope-table';
import { scopeDetailQuery } from './scopes-api';

function ScopeDetailView({ scope }: { scope: ScopeDetail }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [isEditingAdmins, setIsEditingAdmins] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} fz={26}>
            {scope.name}
          </Title>
          <Group gap="xs">
            <Badge variant="light">{t('scopes.levelN', { level: scope.level })}</Badge>
            {scope.type ? (
              <Badge variant="outline" color="gray">
                {organisationTypeLabel(scope.type)}
              </Badge>
            ) : null}
            <EnabledBadge enabled={scope.enabled} />
          </Group>
        </Stack>
        <ScopeActions
          scope={scope}
          variant="button"
          onDeleted={() => {
            void navigate('..', { relative: 'path' });
          }}
        />
      </Group>
      <SimpleGrid cols={4}>
        <InfoTile label={t('scopes.parent')} value={scope.parent?.name ?? t('scopes.noParentShort')} />
        <InfoTile label={t('scopes.childrenCount')} value={String(scope.childrenCount)} />
        <InfoTile label={t('scopes.created')} value={formatDateTime(scope.createdAt)} />
        <InfoTile label={t('scopes.updated')} value={formatDateTime(scope.updatedAt)} />
      </SimpleGrid>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="sm">
          {t('scopes.centersTitle')}
        </Title>
        {scope.centers.length === 0 ? (
          <EmptyList title={t('scopes.noCenters')} />
        ) : (
          <Group gap="sm" data-testid="scope-centers">
            {scope.centers.map((center) => (
              <Anchor
                key={center.id}
                component={Link}
                to={areaPath(session.area, `health-centers/${center.id}`)}
              >
                {center.name}
                {center.enabled ? '' : ` (${t('status.disabled')})`}
              </Anchor>
            ))}
          </Group>
        )}
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="lg">
            {t('scopes.admins.title')}
          </Title>
          <Button
            variant="default"
            size="xs"
            onClick={() => {
              setIsEditingAdmins(true);
            }}
          >
            {t('scopes.admins.change')}
          </Button>
        </Group>
        {scope.admins.length === 0 ? (
          <EmptyList title={t('scopes.admins.none')} />
        ) : (
          <Table aria-label={t('scopes.admins.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('staff.name')}</Table.Th>
                <Table.Th>{t('staff.contact')}</Table.Th>
                <Table.Th>{t('staff.role')}</Table.Th>
                <Table.Th>{t('scopes.admins.kind')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {scope.admins.map((admin) => (
                <Table.Tr key={admin.userId}>
                  <Table.Td>
                    <Anchor component={Link} to={areaPath(session.area, `staff/${admin.userId}`)}>
                      {admin.fullName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{admin.email ?? admin.phone ?? ''}</Table.Td>
                  <Table.Td>{tc(`roles.${admin.role}`)}</Table.Td>
                  <Table.Td>{t(`scopes.admins.kinds.${admin.kind}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      <ScopeAdminsDialog
        scope={isEditingAdmins ? scope : null}
        onClose={() => {
          setIsEditingAdmins(false);
        }}
      />
    </Stack>
  );
}

/** A scope admin's view: the tenant-wide detail call is not theirs, so the page shows what they may read. */
function LimitedScopeView({ scopeId }: { scopeId: string }) {
  const { t } = useTranslation('org');
  const session = useSession();
  const { scopes, centers } = useOrgReach();
  const scope = scopes.find((item) => item.id === scopeId);
  if (!scope) return <EmptyList title={t('scopes.notFound')} description={t('scopes.notFoundHint')} />;
  const own = centers.filter((center) => center.scopeId === scope.id);
  return (
    <Stack gap="lg">
      <Title order={1} fz={26}>
        {scope.name}
      </Title>
      <Badge variant="light">{t('scopes.levelN', { level: scope.level })}</Badge>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="sm">
          {t('scopes.centersTitle')}
        </Title>
        {own.length === 0 ? (
          <EmptyList title={t('scopes.noCenters')} />
        ) : (
          <Group gap="sm">
            {own.map((center) => (
              <Anchor
                key={center.id}
                component={Link}
                to={areaPath(session.area, `health-centers/${center.id}`)}
              >
                {center.name}
              </Anchor>
            ))}
          </Group>
        )}
      </Paper>
    </Stack>
  );
}

/** /<area>/scopes/:scopeId: a scope with its parent, children count, centers and admins. */
export function ScopeDetailPage() {
  const { t } = useTranslation('org');
  const { scopeId = '' } = useParams();
  const reach = useOrgReach();
  const scope = useQuery({ ...scopeDetailQuery(scopeId), enabled: reach.isWholeTenant });
  usePageTitle(scope.data?.name ?? t('scopes.detailTitle'));
  return (
    <Stack gap="lg" maw={1180}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        {t('scopes.backToList')}
      </Anchor>
      {reach.options.isPending || (reach.isWholeTenant && scope.isPending) ? <LoadingState /> : null}
      {reach.options.isError ? (
        <ErrorState
          error={reach.options.error}
          title={t('reach.loadFailed')}
          onRetry={() => void reach.options.refetch()}
        />
      ) : null}
      {scope.isError ? (
        <ErrorState
          error={scope.error}
          title={t('scopes.detailLoadFailed')}
          onRetry={() => void scope.refetch()}
        />
      ) : null}
      {scope.isSuccess ? <ScopeDetailView scope={scope.data} /> : null}
      {reach.options.isSuccess && !reach.isWholeTenant ? <LimitedScopeView scopeId={scopeId} /> : null}
    </Stack>
  );
}
