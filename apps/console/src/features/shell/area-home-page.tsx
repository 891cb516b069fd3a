import { lazy, Suspense, useState } from 'react';
import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { PatientDashboard } from '../patients/patient-dashboard';
import { ScopeControl } from '../patients/patient-triage';
import { PatientWorklist } from '../patients/patient-worklist';
import { defaultScopeOf, isClinicalRole } from '../patients/patients-api';
import { InfoTile } from './info-tile';
import { Can } from './permissions';
import { organisationName, useSession } from './session-context';
import { usePageTitle } from './use-page-title';

/**
 * A doctor's notice of licenses expired or expiring (with the doctors' API it reads): fetched on a
 * doctor's home only, once the home is drawn (it waits for its own query anyway), so no other
 * role's home loads it and the doctor's home does not wait for it.
 */
const OwnLicenseNotice = lazy(() =>
  import('../doctors/own-license-notice').then((module) => ({ default: module.OwnLicenseNotice })),
);

/**
 * Today's appointments on the triage home, for those who see appointments: loaded after the home is
 * drawn, so the first screen does not carry the appointments' code and strings.
 */
const TodayAppointments = lazy(() =>
  import('../appointments/today-appointments').then((module) => ({ default: module.TodayAppointments })),
);

/** The area home every role lands on after startup. */
export function AreaHomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const isDrawn = useMounted();
  usePageTitle(t('home.pageTitle'));
  const roleLabel = t(`roles.${session.user.role}`);
  const organisation = organisationName(session);

  return (
    <Stack gap="lg" maw={1180}>
      <Paper
        radius="lg"
        p="xl"
        style={{
          background:
            'linear-gradient(120deg, var(--mantine-primary-color-7), var(--mantine-primary-color-5))',
          color: 'var(--mantine-primary-color-contrast)',
        }}
      >
        <Title order={1} fz={28}>
          {t('home.welcome', { name: session.user.fullName })}
        </Title>
        <Text mt="xs" fz="md" opacity={0.92}>
          {organisation
            ? t('home.summaryTenant', { role: roleLabel, tenant: organisation })
            : t('home.summaryPlatform', { role: roleLabel })}
        </Text>
      </Paper>
      {session.user.role === 'DOCTOR' && isDrawn ? (
        <Suspense fallback={null}>
          <OwnLicenseNotice />
        </Suspense>
      ) : null}
      {session.user.role === 'PATIENT' ? (
        <Paper withBorder radius="md" p="lg" data-testid="patient-app-link">
          <Text fz="md">{t('home.patientApp')}</Text>
          <Anchor href="/app/" fw={600} mt="xs" display="inline-block">
            {t('home.openPatientApp')}
          </Anchor>
        </Paper>
      ) : null}
      <SimpleGrid cols={3} spacing="md">
        <InfoTile label={t('home.role')} value={roleLabel} testId="home-role" />
        <InfoTile
          label={t('home.organisation')}
          value={organisation ?? t('home.platform')}
          testId="home-organisation"
        />
        <InfoTile label={t('home.sessionUntil')} value={formatDateTime(session.user.expiresAt)} />
      </SimpleGrid>
      {isClinicalRole(session.user.role) ? (
        <TriageHome />
      ) : (
        <Can permission="dashboard.view">
          <PatientDashboard />
        </Can>
      )}
      <Text c="dimmed" fz="sm">
        {t('home.hint')}
      </Text>
    </Stack>
  );
}

/**
 * A doctor's, assistant's and operator's home: "My patients" or "My center" (doctors and
 * assistants start with their own, operators with the center), the counts and the triage worklist
 * of that same choice, so the counts equal the list.
 */
function TriageHome() {
  const session = useSession();
  const isDrawn = useMounted();
  const [scope, setScope] = useState(() => defaultScopeOf(session.user.role));
  return (
    <Stack gap="md">
      <Group justify="flex-end">
        <ScopeControl value={scope} onChange={setScope} />
      </Group>
      <Can permission="user.view">
        <PatientWorklist scope={scope} />
      </Can>
      {isDrawn ? (
        <Can permission="appointment.view">
          <Suspense fallback={null}>
            <TodayAppointments />
          </Suspense>
        </Can>
      ) : null}
      <Can permission="dashboard.view">
        <PatientDashboard listScope={scope} />
      </Can>
    </Stack>
  );
}
