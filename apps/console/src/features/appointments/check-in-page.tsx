import { useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText } from '../../lib/notify';
import { areaPath } from '../shell/navigation';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { tokenOf } from './appointment-actions';
import { appointmentTime } from './appointment-badges';
import { APPOINTMENTS_QUERY_ROOT, checkInWithToken } from './appointments-api';

/**
 * /<area>/check-in (spec §4 check-in): the front desk scans the appointment sheet's QR code (a
 * scanner types it and presses Enter) or pastes its code; the patient is checked in, or the
 * refusal (too early, too late, a stale sheet) is said.
 */
export function CheckInPage() {
  const { t } = useTranslation(['schedules', 'common']);
  usePageTitle(t('appointments.checkIn.title'));
  const session = useSession();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [isMissing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const checkIn = useMutation({
    mutationFn: (scanned: string) => checkInWithToken(tokenOf(scanned)),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      setToken('');
      void queryClient.invalidateQueries({ queryKey: APPOINTMENTS_QUERY_ROOT });
    },
  });
  const again = () => {
    checkIn.reset();
    setToken('');
    input.current?.focus();
  };
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('appointments.checkIn.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('appointments.checkIn.subtitle')}
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="lg">
        <form
          noValidate
          aria-label={t('appointments.checkIn.label')}
          onSubmit={(event) => {
            event.preventDefault();
            if (checkIn.isPending) return;
            if (token.trim() === '') {
              setMissing(true);
              return;
            }
            checkIn.mutate(token);
          }}
        >
          <Group align="flex-end" gap="md">
            <TextInput
              ref={input}
              label={t('appointments.checkIn.token')}
              placeholder={t('appointments.checkIn.tokenPlaceholder')}
              value={token}
              onChange={(event) => {
                setToken(event.currentTarget.value);
                setMissing(false);
                if (checkIn.isError) checkIn.reset();
              }}
              error={isMissing ? t('common:form.required') : undefined}
              autoComplete="off"
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1 }}
              data-autofocus
              autoFocus
              withAsterisk
            />
            <Button type="submit" loading={checkIn.isPending}>
              {t('appointments.checkIn.submit')}
            </Button>
          </Group>
        </form>
      </Paper>
      {checkIn.isError ? (
        <Alert color="red" variant="light" role="alert" data-testid="check-in-refused">
          {messageText(errorMessageFor(checkIn.error))}
        </Alert>
      ) : null}
      {checkIn.isSuccess ? (
        <Alert color="teal" variant="light" role="status" data-testid="check-in-done">
          <Stack gap="sm" align="flex-start">
            <Text fz="sm">
              {t('appointments.checkIn.done', {
                patient: `${checkIn.data.patient.fullName} (${checkIn.data.patient.patientCode})`,
                time: appointmentTime(checkIn.data),
                doctor: checkIn.data.doctor.fullName,
              })}
            </Text>
            <Group gap="sm">
              <Button
                component={Link}
                to={areaPath(session.area, `appointments/${checkIn.data.id}`)}
                size="xs"
                variant="light"
                color="teal"
              >
                {t('appointments.checkIn.open')}
              </Button>
              <Button size="xs" variant="default" onClick={again}>
                {t('appointments.checkIn.next')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
    </Stack>
  );
}
