import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ageInYears, type PatientDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { formatDate, toDisplayDate } from '../../lib/format';
import { PatientFollowersTab } from '../contacts/patient-followers-tab';
import { PatientSubUsersTab, SubUserOfMark } from '../contacts/patient-sub-users';
import { PatientDevicesTab } from '../devices/patient-devices-tab';
import { PatientCareTeamTab } from '../doctors/patient-care-team-tab';
import { PatientHealthTab } from '../health/patient-health-tab';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { patientDetailQuery } from './patients-api';
import { DeleteAccountDialog, StatusChangeDialog } from './patient-dialogs';
import { SendMessageDialog } from './send-message-dialog';
import { PatientHistory } from './patient-history';
import { PatientStatusBadge } from './patient-status-badge';

/** The prescriptions tab is its own chunk, fetched when the tab is first opened. */
const PatientCarePlanTab = lazy(() =>
  import('../care-plan/patient-care-plan-tab').then((module) => ({ default: module.PatientCarePlanTab })),
);
/** So is the package tab (its change and cancel dialogs). */
const PatientPackageTab = lazy(() =>
  import('../packages/patient-package-tab').then((module) => ({ default: module.PatientPackageTab })),
);
/** So is the medical records tab (its form, detail drawer and attachment viewer). */
const PatientMedicalRecordsTab = lazy(() =>
  import('../medical-records/patient-records-tab').then((module) => ({
    default: module.PatientMedicalRecordsTab,
  })),
);

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm">{value}</Text>
    </Stack>
  );
}

function InfoPanel({ patient }: { patient: PatientDetail }) {
  const { t } = useTranslation('patients');
  const none = t('profile.none');
  const address = [
    patient.address.line,
    patient.address.ward,
    patient.address.district,
    patient.address.province,
    patient.address.country,
  ]
    .filter((part) => part !== '')
    .join(', ');
  return (
    <Stack gap="lg">
      <SimpleGrid cols={4} spacing="lg">
        <Field label={t('profile.fields.patientCode')} value={patient.patientCode} />
        <Field
          label={t('profile.fields.birthday')}
          value={patient.birthday === null ? none : toDisplayDate(patient.birthday)}
        />
        <Field
          label={t('profile.fields.age')}
          value={
            patient.birthday === null ? none : t('profile.years', { count: ageInYears(patient.birthday) })
          }
        />
        <Field
          label={t('profile.fields.gender')}
          value={patient.gender === null ? none : t(`gender.${patient.gender}`)}
        />
        <Field label={t('profile.fields.phone')} value={patient.phone ?? none} />
        <Field label={t('profile.fields.email')} value={patient.email ?? none} />
        <Field label={t('profile.fields.healthCenter')} value={patient.healthCenter?.name ?? none} />
        <Field label={t('profile.fields.createdAt')} value={formatDate(patient.createdAt)} />
        <Field
          label={t('profile.fields.heightCm')}
          value={patient.heightCm === null ? none : `${String(patient.heightCm)} cm`}
        />
        <Field
          label={t('profile.fields.weightKg')}
          value={patient.weightKg === null ? none : `${String(patient.weightKg)} kg`}
        />
        <Field label={t('profile.fields.bloodType')} value={patient.bloodType ?? none} />
        <Field label={t('profile.fields.contractId')} value={patient.contractId ?? none} />
        <Field label={t('profile.fields.package')} value={patient.packageCode ?? none} />
        <Field
          label={t('profile.fields.packageExpiresAt')}
          value={patient.packageExpiresAt === null ? none : toDisplayDate(patient.packageExpiresAt)}
        />
      </SimpleGrid>
      <Field label={t('profile.fields.address')} value={address === '' ? none : address} />
      <Field
        label={t('profile.fields.medicalNotes')}
        value={patient.medicalNotes === '' ? none : patient.medicalNotes}
      />
    </Stack>
  );
}

/** Patient profile (spec §2): info, health, devices, care team, medical records and the status history. */
export function PatientProfilePage() {
  // The prescriptions tab is named from its own catalogue, fetched with this page's.
  const { t } = useTranslation(['patients', 'carePlan', 'packages']);
  const { patientId = '' } = useParams();
  const patient = useQuery(patientDetailQuery(patientId));
  const [dialog, setDialog] = useState<'status' | 'delete' | 'message' | null>(null);
  usePageTitle(patient.data?.fullName ?? t('list.title'));
  const closeDialog = () => {
    setDialog(null);
  };
  // Only an account with a login of its own can hold sub-users (a sub-user never does).
  const holdsSubUsers = patient.data?.accountKind === 'MAIN' && patient.data.userId !== null;

  return (
    <Stack gap="lg" maw={1280}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        {t('profile.back')}
      </Anchor>
      {patient.isPending ? <LoadingState /> : null}
      {patient.isError ? (
        isApiError(patient.error) &&
        (patient.error.code === 'patient.accountDeleted' || patient.error.code === 'patient.notFound') ? (
          <Alert color="orange" variant="light" role="alert">
            {patient.error.code === 'patient.accountDeleted' ? t('profile.deleted') : t('profile.notFound')}
          </Alert>
        ) : (
          <ErrorState
            error={patient.error}
            title={t('profile.loadError')}
            onRetry={() => void patient.refetch()}
          />
        )
      ) : null}
      {patient.isSuccess ? (
        <>
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Group gap="sm">
                <Title order={1} fz={26}>
                  {patient.data.fullName}
                </Title>
                <PatientStatusBadge status={patient.data.status} />
              </Group>
              <Text c="dimmed" fz="sm" ff="monospace">
                {patient.data.patientCode}
              </Text>
              {patient.data.accountKind === 'SUB_USER' && patient.data.holder !== null ? (
                <SubUserOfMark holder={patient.data.holder} />
              ) : null}
            </Stack>
            <Group gap="sm">
              {patient.data.userId !== null || patient.data.holder !== null ? (
                <Can permission="notification.send">
                  <Button
                    variant="default"
                    onClick={() => {
                      setDialog('message');
                    }}
                  >
                    {t('profile.sendMessage')}
                  </Button>
                </Can>
              ) : null}
              <Can permission="health.update">
                <Button
                  variant="light"
                  onClick={() => {
                    setDialog('status');
                  }}
                >
                  {t('profile.changeStatus')}
                </Button>
              </Can>
              <Can permission="user.update">
                <Button component={Link} to="edit" variant="default">
                  {t('profile.edit')}
                </Button>
              </Can>
              <Can permission="user.delete">
                <Button
                  color="red"
                  variant="outline"
                  onClick={() => {
                    setDialog('delete');
                  }}
                >
                  {t('profile.deleteAccount')}
                </Button>
              </Can>
            </Group>
          </Group>
          <Paper withBorder radius="md" p="md">
            <Tabs defaultValue="info" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="info">{t('profile.tabs.info')}</Tabs.Tab>
                <Tabs.Tab value="health">{t('profile.tabs.health')}</Tabs.Tab>
                <Tabs.Tab value="devices">{t('profile.tabs.devices')}</Tabs.Tab>
                <Tabs.Tab value="careTeam">{t('profile.tabs.careTeam')}</Tabs.Tab>
                <Can permission="health.view">
                  <Tabs.Tab value="prescriptions">{t('carePlan:title')}</Tabs.Tab>
                </Can>
                <Can permission="relative.view">
                  <Tabs.Tab value="followers">{t('profile.tabs.followers')}</Tabs.Tab>
                </Can>
                {holdsSubUsers ? <Tabs.Tab value="subUsers">{t('profile.tabs.subUsers')}</Tabs.Tab> : null}
                <Tabs.Tab value="package">{t('packages:patient.tab')}</Tabs.Tab>
                <Tabs.Tab value="records">{t('records.title')}</Tabs.Tab>
                <Tabs.Tab value="history">{t('profile.tabs.history')}</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="info" pt="lg">
                <InfoPanel patient={patient.data} />
              </Tabs.Panel>
              <Tabs.Panel value="health" pt="lg">
                <PatientHealthTab patientId={patient.data.id} />
              </Tabs.Panel>
              <Tabs.Panel value="devices" pt="lg">
                <PatientDevicesTab patientId={patient.data.id} />
              </Tabs.Panel>
              <Tabs.Panel value="careTeam" pt="lg">
                <PatientCareTeamTab patientId={patient.data.id} />
              </Tabs.Panel>
              <Can permission="health.view">
                <Tabs.Panel value="prescriptions" pt="lg">
                  <Suspense fallback={<LoadingState />}>
                    <PatientCarePlanTab patientId={patient.data.id} />
                  </Suspense>
                </Tabs.Panel>
              </Can>
              <Can permission="relative.view">
                <Tabs.Panel value="followers" pt="lg">
                  <PatientFollowersTab patientId={patient.data.id} />
                </Tabs.Panel>
              </Can>
              {holdsSubUsers ? (
                <Tabs.Panel value="subUsers" pt="lg">
                  <PatientSubUsersTab patientId={patient.data.id} />
                </Tabs.Panel>
              ) : null}
              <Tabs.Panel value="package" pt="lg">
                <Suspense fallback={<LoadingState />}>
                  <PatientPackageTab patientId={patient.data.id} />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="records" pt="lg">
                <Suspense fallback={<LoadingState />}>
                  <PatientMedicalRecordsTab patientId={patient.data.id} />
                </Suspense>
              </Tabs.Panel>
              <Tabs.Panel value="history" pt="lg">
                <PatientHistory patientId={patient.data.id} />
              </Tabs.Panel>
            </Tabs>
          </Paper>
          <StatusChangeDialog
            key={`status-${patient.data.status}`}
            patient={patient.data}
            opened={dialog === 'status'}
            onClose={closeDialog}
          />
          <DeleteAccountDialog patient={patient.data} opened={dialog === 'delete'} onClose={closeDialog} />
          <SendMessageDialog patient={patient.data} opened={dialog === 'message'} onClose={closeDialog} />
        </>
      ) : null}
    </Stack>
  );
}
