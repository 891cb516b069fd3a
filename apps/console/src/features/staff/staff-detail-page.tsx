import { useState } from 'react';
import { Anchor, Avatar, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { highestRole, isRoleBelow, type StaffDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { isSupportedLanguage } from '../../i18n';
import { formatDate, formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { areaPath } from '../shell/navigation';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { enableStaff, refreshStaff, staffDetailQuery } from './staff-api';
import { StaffDisableDialog } from './staff-disable-dialog';
import { StaffLevelsCard } from './staff-levels-card';
import { StaffStatusBadge, useRoleLabel } from './staff-status';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Text component="div" fz="sm" mt={2}>
        {children}
      </Text>
    </div>
  );
}

function StaffView({ staff }: { staff: StaffDetail }) {
  const { t } = useTranslation('org');
  const { t: tc } = useTranslation();
  const session = useSession();
  const roleLabel = useRoleLabel();
  const queryClient = useQueryClient();
  const [isDisabling, setIsDisabling] = useState(false);
  const enable = useMutation({
    mutationFn: () => enableStaff(staff.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: (saved) => {
      notifySuccess(t('staff.enabled', { name: saved.fullName }));
      refreshStaff(queryClient);
    },
    onError: (error) => {
      notifyError(error);
    },
  });
  const { profile } = staff;
  // The role hierarchy (contracts roles.ts): an account is changed, disabled or enabled only by
  // someone ranking above its highest level; one's own details stay editable.
  const isBelowCaller = isRoleBelow(
    highestRole(staff.role, ...staff.levels.map((level) => level.role)),
    session.user.role,
  );
  const isSelf = staff.id === session.user.userId;
  const none = (
    <Text c="dimmed" span>
      —
    </Text>
  );
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Group gap="md" wrap="nowrap">
          <Avatar color="initials" name={staff.fullName} size={56} radius="xl" />
          <Stack gap={4}>
            <Title order={1} fz={26}>
              {staff.fullName}
            </Title>
            <Group gap="xs">
              <Badge variant="light" tt="none">
                {roleLabel(staff)}
              </Badge>
              <StaffStatusBadge staff={staff} />
            </Group>
          </Stack>
        </Group>
        <Group gap="sm">
          {!isBelowCaller && !isSelf ? (
            <Text fz="sm" c="dimmed" maw={320} data-testid="staff-out-of-reach">
              {t('staff.outOfReach')}
            </Text>
          ) : null}
          {isBelowCaller || isSelf ? (
            <Can permission="staff.update">
              <Button component={Link} to="edit" variant="default">
                {tc('actions.edit')}
              </Button>
            </Can>
          ) : null}
          {isBelowCaller ? (
            <Can permission="staff.disable">
              {staff.status === 'DISABLED' ? (
                <Button
                  loading={enable.isPending}
                  onClick={() => {
                    enable.mutate();
                  }}
                >
                  {t('staff.enable')}
                </Button>
              ) : (
                <Button
                  color="red"
                  variant="light"
                  disabled={staff.status !== 'ACTIVE'}
                  onClick={() => {
                    setIsDisabling(true);
                  }}
                >
                  {t('staff.disable.open')}
                </Button>
              )}
            </Can>
          ) : null}
        </Group>
      </Group>
      <SimpleGrid cols={2} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Title order={2} fz="lg" mb="md">
            {t('staff.profileTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="md">
            <Field label={t('staff.form.email')}>{staff.email ?? none}</Field>
            <Field label={t('staff.form.phone')}>{staff.phone ?? none}</Field>
            <Field label={t('staff.gender')}>
              {profile.gender ? tc(`profile.genders.${profile.gender}`) : none}
            </Field>
            <Field label={t('staff.birthday')}>
              {profile.birthday ? formatDate(profile.birthday) : none}
            </Field>
            <Field label={t('staff.language')}>
              {isSupportedLanguage(profile.language)
                ? tc(`language.${profile.language}`)
                : profile.language || none}
            </Field>
            <Field label={t('staff.created')}>{formatDateTime(staff.createdAt)}</Field>
          </SimpleGrid>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} fz="lg" mb="md">
            {t('staff.placeTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="md">
            <Field label={t('staff.form.center')}>
              {staff.center ? (
                <Anchor component={Link} to={areaPath(session.area, `health-centers/${staff.center.id}`)}>
                  {staff.center.name}
                </Anchor>
              ) : (
                none
              )}
            </Field>
            <Field label={t('staff.form.scope')}>{staff.scope?.name ?? none}</Field>
            {staff.role === 'DOCTOR_ASSISTANT' ? (
              <Field label={t('staff.doctors')}>
                {staff.doctors.map((doctor) => doctor.fullName).join(', ') || none}
              </Field>
            ) : null}
            {staff.role === 'SYSTEM_ADMIN' ? (
              <Field label={t('staff.tenants')}>
                {staff.tenants.map((tenant) => tenant.name).join(', ') || none}
              </Field>
            ) : null}
            <Field label={t('staff.adminOf')}>
              {staff.centerAdminOf.length === 0
                ? none
                : staff.centerAdminOf
                    .map((entry) => `${entry.center.name} (${t(`centers.adminKinds.${entry.kind}`)})`)
                    .join(', ')}
            </Field>
          </SimpleGrid>
          {staff.centerAdminOf.some((entry) => entry.kind === 'MAIN') ? (
            <Text fz="xs" c="dimmed" mt="md" data-testid="main-admin-note">
              {t('staff.mainAdminNote')}
            </Text>
          ) : null}
        </Paper>
      </SimpleGrid>
      <StaffLevelsCard staff={staff} isChangeable={isBelowCaller} />
      <StaffDisableDialog
        staff={isDisabling ? staff : null}
        onClose={() => {
          setIsDisabling(false);
        }}
      />
    </Stack>
  );
}

/** /<area>/staff/:staffId: profile, role, place, levels and status; someone outside the caller's view is not found. */
export function StaffDetailPage() {
  const { t } = useTranslation('org');
  const { staffId = '' } = useParams();
  const staff = useQuery(staffDetailQuery(staffId));
  usePageTitle(staff.data?.fullName ?? t('staff.detailTitle'));
  const isNotFound = isApiError(staff.error) && staff.error.kind === 'notFound';
  return (
    <Stack gap="lg" maw={1180}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        {t('staff.backToList')}
      </Anchor>
      {staff.isPending ? <LoadingState /> : null}
      {isNotFound ? (
        <div data-testid="staff-not-found">
          <EmptyList title={t('staff.notFound')} description={t('staff.notFoundHint')} />
        </div>
      ) : null}
      {staff.isError && !isNotFound ? (
        <ErrorState
          error={staff.error}
          title={t('staff.detailLoadFailed')}
          onRetry={() => void staff.refetch()}
        />
      ) : null}
      {staff.isSuccess ? <StaffView staff={staff.data} /> : null}
    </Stack>
  );
}
