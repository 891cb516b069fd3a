import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PatientDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, toDisplayDate } from '../../lib/format';
import { BADGE_COLORS } from '../../theme';
import { PatientStatusBadge } from '../patients/patient-status-badge';
import { areaPath } from '../shell/navigation';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { patientSubUsersQuery } from './contacts-api';

const SUB_USER_COLOR = BADGE_COLORS.ticketStatus.CONFIRMED;

/** A sub-user profile in a list of patients (spec §3 Sub-user): no login of its own, no SOS. */
export function SubUserBadge() {
  const { t } = useTranslation('patientContacts');
  return (
    <Badge
      variant={SUB_USER_COLOR.variant}
      color={SUB_USER_COLOR.color}
      tt="none"
      size="sm"
      styles={{ label: { overflow: 'visible' } }}
      data-testid="sub-user-badge"
    >
      {t('subUsers.badge')}
    </Badge>
  );
}

/** On a sub-user's profile: whose account holds it, with a link to the holder when staff see it. */
export function SubUserOfMark({ holder }: { holder: NonNullable<PatientDetail['holder']> }) {
  const { t } = useTranslation('patientContacts');
  const session = useSession();
  return (
    <Group gap={8} data-testid="sub-user-of">
      <SubUserBadge />
      <Text fz="sm">
        {t('subUsers.of')}{' '}
        {holder.patientId === null ? (
          <Text component="span" fw={600} fz="sm">
            {holder.name}
          </Text>
        ) : (
          <Anchor component={Link} to={areaPath(session.area, `patients/${holder.patientId}`)} fw={600} fz="sm">
            {holder.name}
          </Anchor>
        )}
      </Text>
      <Text fz="xs" c="dimmed">
        {t('subUsers.noLogin')}
      </Text>
    </Group>
  );
}

/** The sub-users tab of a holder's profile: each sub-user's record, its status and last reading. */
export function PatientSubUsersTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patientContacts');
  const { t: tp } = useTranslation('patients');
  const { t: tm } = useTranslation('monitoring');
  const session = useSession();
  const subUsers = useQuery(patientSubUsersQuery(patientId));
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} fz="lg">
            {t('subUsers.title')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('subUsers.subtitle')}
          </Text>
        </Stack>
        {subUsers.isPending ? <LoadingState /> : null}
        {subUsers.isError ? (
          <ErrorState
            error={subUsers.error}
            title={t('subUsers.loadFailed')}
            onRetry={() => void subUsers.refetch()}
          />
        ) : null}
        {subUsers.isSuccess && subUsers.data.length === 0 ? (
          <EmptyList title={t('subUsers.empty')} description={t('subUsers.emptyHint')} />
        ) : null}
        {subUsers.isSuccess && subUsers.data.length > 0 ? (
          <Table verticalSpacing="sm" aria-label={t('subUsers.caption')} data-testid="sub-users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('subUsers.columns.name')}</Table.Th>
                <Table.Th>{t('subUsers.columns.code')}</Table.Th>
                <Table.Th>{t('subUsers.columns.relation')}</Table.Th>
                <Table.Th>{t('subUsers.columns.birthday')}</Table.Th>
                <Table.Th>{t('subUsers.columns.status')}</Table.Th>
                <Table.Th>{t('subUsers.columns.lastReading')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {subUsers.data.map((subUser) => {
                const name = `${subUser.firstName} ${subUser.lastName}`;
                return (
                  <Table.Tr key={subUser.id} data-testid="sub-user-row">
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={areaPath(session.area, `patients/${subUser.id}`)}
                        fw={600}
                        aria-label={tp('list.open', { name })}
                      >
                        {name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {subUser.patientCode}
                    </Table.Td>
                    <Table.Td fz="sm">{tm(`relationship.${subUser.relation}`)}</Table.Td>
                    <Table.Td fz="sm">{toDisplayDate(subUser.birthday)}</Table.Td>
                    <Table.Td>
                      <PatientStatusBadge status={subUser.status} />
                    </Table.Td>
                    <Table.Td fz="sm">
                      {subUser.lastReadingAt === null ? (
                        <Text fz="sm" c="dimmed">
                          {t('subUsers.noReading')}
                        </Text>
                      ) : (
                        formatDateTime(subUser.lastReadingAt)
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}
