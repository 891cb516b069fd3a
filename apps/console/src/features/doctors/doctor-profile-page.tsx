import { useState, type ReactNode } from 'react';
import {
  Anchor,
  Avatar,
  Badge,
  Button,
  Group,
  Paper,
  Rating,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DegreeCode, DoctorProfile } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { formatNumber } from '../../lib/format';
import { Can } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { LicenseBadge, SpecialtyChips } from './doctor-badges';
import { DoctorLicensesCard } from './doctor-licenses-card';
import { DoctorProfileDialog } from './doctor-profile-form';
import { doctorProfileQuery } from './doctors-api';
import { DoctorReviewsCard } from '../reviews/doctor-reviews-card';

function Field({ label, children }: { label: string; children: ReactNode }) {
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

const none = (
  <Text c="dimmed" span>
    —
  </Text>
);
const orNone = (value: string) => (value.trim() === '' ? none : value);

function DoctorView({ doctor }: { doctor: DoctorProfile }) {
  const { t } = useTranslation('doctors');
  const { t: tc } = useTranslation();
  const [isEditing, setIsEditing] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Group gap="md" wrap="nowrap">
          <Avatar color="initials" name={doctor.fullName} size={56} radius="xl" />
          <Stack gap={4}>
            <Title order={1} fz={26}>
              {doctor.fullName}
            </Title>
            <Group gap="xs">
              <Badge variant="light" tt="none">
                {t(`kind.${doctor.kind}`)}
              </Badge>
              <LicenseBadge state={doctor.licenseState} />
              {doctor.hasProfile ? null : (
                <Badge color="yellow" variant="light" tt="none">
                  {t('profile.noProfile')}
                </Badge>
              )}
            </Group>
          </Stack>
        </Group>
        <Can permission="staff.update">
          <Button
            variant="default"
            onClick={() => {
              setIsEditing(true);
            }}
          >
            {tc('actions.edit')}
          </Button>
        </Can>
      </Group>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Title order={2} fz="lg">
            {t('profile.qualification')}
          </Title>
          <Field label={t('profile.specialties')}>
            <SpecialtyChips specialties={doctor.specialties} />
          </Field>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Field label={t('profile.degree')}>
              {doctor.degreeCode === null ? none : t(`degree.${doctor.degreeCode as DegreeCode}`)}
            </Field>
            <Field label={t('profile.experience')}>
              {doctor.yearsOfExperience === null
                ? none
                : t('list.years', { count: doctor.yearsOfExperience })}
            </Field>
            <Field label={t('profile.education')}>{orNone(doctor.placeOfEducation)}</Field>
            <Field label={t('profile.cost')}>
              {doctor.examinationCost === null ? none : formatNumber(doctor.examinationCost)}
            </Field>
            <Field label={t('list.rating')}>
              <Group gap={6}>
                <Rating
                  value={doctor.ratingAverage}
                  fractions={10}
                  readOnly
                  size="sm"
                  role="img"
                  aria-label={t('list.ratingLabel', { value: formatNumber(doctor.ratingAverage, 1) })}
                />
                <Text fz="sm">
                  {formatNumber(doctor.ratingAverage, 1)} · {t('profile.reviews', { count: doctor.ratingCount })}
                </Text>
              </Group>
            </Field>
            <Field label={t('profile.patients')}>{doctor.patientsCount}</Field>
          </SimpleGrid>
          <Field label={t('profile.introduction')}>
            <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {orNone(doctor.introduction)}
            </Text>
          </Field>
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Title order={2} fz="lg">
            {t('profile.contact')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            <Field label={t('profile.email')}>{doctor.email ?? none}</Field>
            <Field label={t('profile.phone')}>{doctor.phone ?? none}</Field>
            <Field label={t('list.center')}>{doctor.center?.name ?? none}</Field>
            <Field label={t('profile.officeAddress')}>{orNone(doctor.officeAddress)}</Field>
            <Field label={t('profile.officeEmail')}>{orNone(doctor.officeEmail)}</Field>
            <Field label={t('profile.officePhone')}>{orNone(doctor.officePhone)}</Field>
            <Field label={t('profile.assistants')}>
              {doctor.assistants.length === 0
                ? none
                : doctor.assistants.map((assistant) => assistant.fullName).join(', ')}
            </Field>
          </SimpleGrid>
        </Stack>
      </Paper>
      <DoctorLicensesCard doctor={doctor} />
      <DoctorReviewsCard doctorId={doctor.id} />
      <DoctorProfileDialog
        doctor={doctor}
        opened={isEditing}
        onClose={() => {
          setIsEditing(false);
        }}
      />
    </Stack>
  );
}

/** The doctor profile (spec §2): qualification, contact, licenses; admins edit it. */
export function DoctorProfilePage() {
  const { t } = useTranslation('doctors');
  const { doctorId = '' } = useParams();
  const doctor = useQuery(doctorProfileQuery(doctorId));
  usePageTitle(doctor.data?.fullName ?? t('profile.title'));
  return (
    <Stack gap="md" maw={1100}>
      <Anchor component={Link} to=".." relative="path" fz="sm">
        ← {t('profile.back')}
      </Anchor>
      {doctor.isPending ? <LoadingState /> : null}
      {doctor.isError ? (
        isApiError(doctor.error) && doctor.error.status === 404 ? (
          <EmptyList title={t('profile.notFound')} />
        ) : (
          <ErrorState error={doctor.error} onRetry={() => void doctor.refetch()} />
        )
      ) : null}
      {doctor.isSuccess ? <DoctorView doctor={doctor.data} /> : null}
    </Stack>
  );
}
