import { useState } from 'react';
import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { CenterDetail, OrgUser } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { formatDateTime } from '../../lib/format';
import { organisationTypeLabel } from './organisation-type-label';
import { useOrgReach } from '../levels/use-org-reach';
import { InfoTile } from '../shell/info-tile';
import { areaPath } from '../shell/navigation';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { centerDetailQuery, centerLogoUrl } from './centers-api';
import { CenterStatusDialog } from './center-status-dialog';
import { BuildingIcon } from './org-icons';
import { EnabledBadge } from './scope-table';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Text fz="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
        {value === '' ? '—' : value}
      </Text>
    </div>
  );
}

function AdminRows({ admins }: { admins: { user: OrgUser; kind: 'MAIN' | 'SUPPORT' }[] }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const session = useSession();
  return (
    <Table aria-label={t('centers.adminsTitle')} data-testid="center-admins">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('staff.name')}</Table.Th>
          <Table.Th>{t('staff.contact')}</Table.Th>
          <Table.Th>{t('staff.role')}</Table.Th>
          <Table.Th>{t('scopes.admins.kind')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {admins.map(({ user, kind }) => (
          <Table.Tr key={user.userId}>
            <Table.Td>
              <Anchor component={Link} to={areaPath(session.area, `staff/${user.userId}`)}>
                {user.fullName}
              </Anchor>
            </Table.Td>
            <Table.Td>{user.email ?? user.phone ?? ''}</Table.Td>
            <Table.Td>{tc(`roles.${user.role}`)}</Table.Td>
            <Table.Td>
              <Badge variant={kind === 'MAIN' ? 'filled' : 'light'}>{t(`centers.adminKinds.${kind}`)}</Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CenterView({ center, isWholeTenant }: { center: CenterDetail; isWholeTenant: boolean }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const [isChangingStatus, setIsChangingStatus] = useState(false);
  const admins = [
    ...(center.mainAdmin ? [{ user: center.mainAdmin, kind: 'MAIN' as const }] : []),
    ...center.supportAdmins.map((user) => ({ user, kind: 'SUPPORT' as const })),
  ];
  const coordinates =
    center.lat === null || center.lng === null ? '' : `${String(center.lat)}, ${String(center.lng)}`;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Group gap="md" wrap="nowrap">
          <Avatar
            src={center.hasLogo ? centerLogoUrl(center.id, center.updatedAt) : null}
            size={64}
            radius="md"
            alt=""
          >
            <BuildingIcon width={28} height={28} />
          </Avatar>
          <Stack gap={4}>
            <Title order={1} fz={26}>
              {center.name}
            </Title>
            <Group gap="xs">
              {center.type ? (
                <Badge variant="outline" color="gray">
                  {organisationTypeLabel(center.type)}
                </Badge>
              ) : null}
              <EnabledBadge enabled={center.enabled} />
            </Group>
          </Stack>
        </Group>
        <Group gap="sm">
          <Button component={Link} to="edit" variant="default">
            {tc('actions.edit')}
          </Button>
          {isWholeTenant ? (
            <Button
              color={center.enabled ? 'red' : undefined}
              variant={center.enabled ? 'light' : 'filled'}
              onClick={() => {
                setIsChangingStatus(true);
              }}
            >
              {center.enabled ? t('centers.statusDialog.deactivate') : t('centers.statusDialog.activate')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <SimpleGrid cols={4}>
        <InfoTile
          label={t('centers.staffCount')}
          value={String(center.staffCount)}
          testId="center-staff-count"
        />
        <InfoTile
          label={t('centers.patientCount')}
          value={String(center.patientCount)}
          testId="center-patient-count"
        />
        <InfoTile label={t('centers.scope')} value={center.scope?.name ?? t('centers.noScopeShort')} />
        <InfoTile label={t('centers.updated')} value={formatDateTime(center.updatedAt)} />
      </SimpleGrid>
      <Paper withBorder radius="md" p="lg">
        <SimpleGrid cols={3} spacing="lg" verticalSpacing="md" data-testid="center-fields">
          <Field label={t('centers.form.representative')} value={center.representative} />
          <Field
            label={t('centers.phone')}
            value={[center.phonePrefix, center.phoneNumber].filter(Boolean).join(' ')}
          />
          <Field label={t('centers.form.hotline')} value={center.hotline} />
          <Field label={t('centers.form.email')} value={center.email} />
          <Field label={t('centers.form.website')} value={center.website} />
          <Field label={t('centers.form.address')} value={center.address} />
          <Field label={t('centers.coordinates')} value={coordinates} />
          <Field label={t('scopes.created')} value={formatDateTime(center.createdAt)} />
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="sm">
          {t('centers.adminsTitle')}
        </Title>
        {admins.length === 0 ? <EmptyList title={t('centers.noAdmins')} /> : <AdminRows admins={admins} />}
        {isWholeTenant ? (
          <Text fz="xs" c="dimmed" mt="sm">
            {t('centers.adminsHint')}
          </Text>
        ) : null}
      </Paper>
      <CenterStatusDialog
        center={isChangingStatus ? center : null}
        onClose={() => {
          setIsChangingStatus(false);
        }}
      />
    </Stack>
  );
}

/** /<area>/health-centers/:centerId: every field, logo, admins, staff and patient counts. */
export function CenterDetailPage() {
  const { t } = useTranslation('org');
  const { centerId = '' } = useParams();
  const reach = useOrgReach();
  const center = useQuery({
    ...centerDetailQuery(centerId, reach.isWholeTenant),
    enabled: reach.options.isSuccess,
  });
  usePageTitle(center.data?.name ?? t('centers.detailTitle'));
  const isNotFound = isApiError(center.error) && center.error.kind === 'notFound';
  return (
    <Stack gap="lg" maw={1180}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        {t('centers.backToList')}
      </Anchor>
      {reach.options.isError ? (
        <ErrorState
          error={reach.options.error}
          title={t('reach.loadFailed')}
          onRetry={() => void reach.options.refetch()}
        />
      ) : null}
      {reach.options.isPending || center.isPending ? <LoadingState /> : null}
      {isNotFound ? (
        <EmptyList title={t('centers.notFound')} description={t('centers.notFoundHint')} />
      ) : null}
      {center.isError && !isNotFound ? (
        <ErrorState
          error={center.error}
          title={t('centers.detailLoadFailed')}
          onRetry={() => void center.refetch()}
        />
      ) : null}
      {center.isSuccess ? <CenterView center={center.data} isWholeTenant={reach.isWholeTenant} /> : null}
    </Stack>
  );
}
