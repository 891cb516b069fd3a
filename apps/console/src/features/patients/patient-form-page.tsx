import { Anchor, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import { patientDetailQuery } from './patients-api';
import { PatientForm } from './patient-form';

/** /<area>/patients/new and /<area>/patients/:patientId/edit. */
export function PatientFormPage() {
  const { t } = useTranslation('patients');
  const { patientId } = useParams();
  const isNew = patientId === undefined;
  const patient = useQuery({ ...patientDetailQuery(patientId ?? ''), enabled: !isNew });
  const title = isNew
    ? t('form.createTitle')
    : t('form.editTitle', { code: patient.data?.patientCode ?? '' });
  usePageTitle(title);
  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={2}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('profile.back')}
        </Anchor>
        <Title order={1} fz={26}>
          {title}
        </Title>
      </Stack>
      {isNew ? <PatientForm patient={null} /> : null}
      {!isNew && patient.isPending ? <LoadingState /> : null}
      {patient.isError ? (
        <ErrorState
          error={patient.error}
          title={t('form.loadError')}
          onRetry={() => void patient.refetch()}
        />
      ) : null}
      {patient.isSuccess ? <PatientForm key={patient.data.id} patient={patient.data} /> : null}
    </Stack>
  );
}
