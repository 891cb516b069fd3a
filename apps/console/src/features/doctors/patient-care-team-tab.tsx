import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CareRelation, CareTeamEntry } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { areaPath } from '../shell/navigation';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { LicenseBadge, SpecialtyChips } from './doctor-badges';
import { PatientCareRequests } from './patient-care-requests';
import { DoctorPickerFields, useDoctorPicker } from './doctor-picker-fields';
import { assignDoctor, careTeamQuery, refreshDoctors, unassignDoctor } from './doctors-api';

function AssignDialog({
  patientId,
  team,
  opened,
  onClose,
}: {
  patientId: string;
  team: readonly CareTeamEntry[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const picker = useDoctorPicker(opened);
  const [replace, setReplace] = useState(false);
  const family = team.find((entry) => entry.relation === 'FAMILY');
  const onTeam = new Set(team.map((entry) => entry.doctor.id));
  const assign = useMutation({
    mutationFn: (input: { doctorId: string; relation: CareRelation; replace: boolean }) =>
      assignDoctor(patientId, input),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('careTeam.assigned'));
      refreshDoctors(queryClient);
      close();
    },
  });
  function close() {
    assign.reset();
    picker.reset();
    setReplace(false);
    onClose();
  }
  return (
    <Modal opened={opened} onClose={close} title={t('careTeam.assignTitle')} centered>
      <form
        noValidate
        aria-label={t('careTeam.assignTitle')}
        onSubmit={(event) => {
          event.preventDefault();
          const doctorId = picker.requireDoctor();
          if (doctorId === null || assign.isPending) return;
          const { relation } = picker;
          assign.mutate({ doctorId, relation, replace: relation === 'FAMILY' && replace });
        }}
      >
        <Stack gap="md">
          {assign.isError ? (
            <Alert color="red" variant="light" role="alert" data-testid="assign-error">
              {messageText(errorMessageFor(assign.error))}
            </Alert>
          ) : null}
          <DoctorPickerFields
            picker={picker}
            // Doctors already on the team are left out; an expired license is said in the name.
            toOption={(doctor) =>
              onTeam.has(doctor.id)
                ? null
                : {
                    value: doctor.id,
                    label:
                      doctor.licenseState === 'EXPIRED'
                        ? `${doctor.fullName} (${t('licenseState.EXPIRED')})`
                        : doctor.fullName,
                  }
            }
            relationLabelId="care-relation-label"
          />
          {picker.relation === 'FAMILY' && family !== undefined ? (
            <Checkbox
              label={t('careTeam.replaceFamily', { name: family.doctor.fullName })}
              checked={replace}
              onChange={(event) => {
                setReplace(event.currentTarget.checked);
              }}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {tc('actions.cancel')}
            </Button>
            <Button type="submit" loading={assign.isPending}>
              {t('careTeam.assign')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function TeamTable({ patientId, team }: { patientId: string; team: readonly CareTeamEntry[] }) {
  const { t } = useTranslation('doctors');
  const session = useSession();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<CareTeamEntry | null>(null);
  const unassign = useMutation({
    mutationFn: (doctorId: string) => unassignDoctor(patientId, doctorId),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('careTeam.unassigned'));
      refreshDoctors(queryClient);
      setRemoving(null);
    },
  });
  return (
    <>
      <Table verticalSpacing="sm" aria-label={t('careTeam.title')} data-testid="care-team-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('careTeam.doctor')}</Table.Th>
            <Table.Th>{t('careTeam.relation')}</Table.Th>
            <Table.Th>{t('list.specialties')}</Table.Th>
            <Table.Th>{t('list.license')}</Table.Th>
            <Table.Th>{t('careTeam.since')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {team.map((entry) => (
            <Table.Tr key={entry.doctor.id}>
              <Table.Td>
                <Anchor component={Link} to={areaPath(session.area, `doctors/${entry.doctor.id}`)} fw={600}>
                  {entry.doctor.fullName}
                </Anchor>
                <Text fz="xs" c="dimmed">
                  {entry.doctor.center?.name ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={entry.relation === 'FAMILY' ? 'grape' : 'blue'} variant="light" tt="none">
                  {t(`relation.${entry.relation}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <SpecialtyChips specialties={entry.doctor.specialties} max={2} />
              </Table.Td>
              <Table.Td>
                <LicenseBadge state={entry.doctor.licenseState} isShort />
              </Table.Td>
              <Table.Td>
                <Text fz="sm">{formatDate(entry.assignedAt)}</Text>
                {entry.assignedBy ? (
                  <Text fz="xs" c="dimmed">
                    {t('careTeam.by', { name: entry.assignedBy.fullName })}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Can permission="user.assign">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => {
                      unassign.reset();
                      setRemoving(entry);
                    }}
                    aria-label={t('careTeam.unassignLabel', { name: entry.doctor.fullName })}
                  >
                    {t('careTeam.unassign')}
                  </Button>
                </Can>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <ConfirmDialog
        isOpen={removing !== null}
        title={t('careTeam.unassignTitle')}
        text={t('careTeam.unassignText', { name: removing?.doctor.fullName ?? '' })}
        confirmLabel={t('careTeam.unassign')}
        confirmColor="red"
        isPending={unassign.isPending}
        error={unassign.error}
        onConfirm={() => {
          if (removing) unassign.mutate(removing.doctor.id);
        }}
        onClose={() => {
          setRemoving(null);
        }}
      />
    </>
  );
}

/** The care team tab of a patient profile: the family doctor and specialists (assign, unassign) and the care requests. */
export function PatientCareTeamTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('doctors');
  const team = useQuery(careTeamQuery(patientId));
  const [isAssigning, setIsAssigning] = useState(false);
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Group justify="space-between">
            <Stack gap={2}>
              <Title order={2} fz="lg">
                {t('careTeam.title')}
              </Title>
              <Text c="dimmed" fz="sm">
                {t('careTeam.subtitle')}
              </Text>
            </Stack>
            <Can permission="user.assign">
              <Button
                onClick={() => {
                  setIsAssigning(true);
                }}
              >
                {t('careTeam.assign')}
              </Button>
            </Can>
          </Group>
          {team.isPending ? <LoadingState /> : null}
          {team.isError ? (
            <ErrorState
              error={team.error}
              title={t('careTeam.loadFailed')}
              onRetry={() => void team.refetch()}
            />
          ) : null}
          {team.isSuccess && team.data.length === 0 ? (
            <EmptyList title={t('careTeam.empty')} description={t('careTeam.emptyHint')} />
          ) : null}
          {team.isSuccess && team.data.length > 0 ? (
            <TeamTable patientId={patientId} team={team.data} />
          ) : null}
        </Stack>
        <AssignDialog
          patientId={patientId}
          team={team.data ?? []}
          opened={isAssigning}
          onClose={() => {
            setIsAssigning(false);
          }}
        />
      </Paper>
      <PatientCareRequests patientId={patientId} />
    </Stack>
  );
}
