import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Box, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Appointment } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessageFor } from '../../api/error-reaction';
import { cspNonce } from '../../csp-nonce';
import { formatDateTime } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { areaPath } from '../shell/navigation';
import { ErrorState, LoadingState } from '../shell/query-states';
import { organisationName, useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { appointmentTime } from './appointment-badges';
import { appointmentQuery, checkInTokenQuery } from './appointments-api';
import { qrMatrix, qrPath } from './qr-code';

/**
 * Printing shows the sheet alone: the shell's header, navigation and toasts and the page's own
 * buttons are left off paper. A style element with the page's nonce (the policy allows no other).
 */
const PRINT_STYLE = `
@media print {
  header, nav, aside, .mantine-AppShell-header, .mantine-AppShell-navbar,
  .mantine-Notifications-root, [data-print-hidden] { display: none !important; }
  html, body { background: #fff !important; }
  main, .mantine-AppShell-main {
    padding: 0 !important; margin: 0 !important; min-height: 0 !important; background: #fff !important;
    --app-shell-navbar-offset: 0px; --app-shell-header-offset: 0px;
  }
  [data-print-sheet] { border: none !important; box-shadow: none !important; padding: 0 !important; }
  @page { size: A5 portrait; margin: 12mm; }
}`;

const QUIET_ZONE = 4;

/** The token as a QR code, drawn once the library (loaded here only) has made its matrix. */
function CheckInQr({ token, label }: { token: string; label: string }) {
  const [drawn, setDrawn] = useState<{ path: string; size: number } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    qrMatrix(token).then(
      (matrix) => {
        if (isCurrent) setDrawn({ path: qrPath(matrix, QUIET_ZONE), size: matrix.size + 2 * QUIET_ZONE });
      },
      () => {
        if (isCurrent) setFailed(true);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);
  if (failed) return null;
  if (drawn === null) return <Loader size="sm" />;
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="check-in-qr"
      width={188}
      height={188}
      viewBox={`0 0 ${String(drawn.size)} ${String(drawn.size)}`}
      shapeRendering="crispEdges"
    >
      <rect width={drawn.size} height={drawn.size} fill="#fff" />
      <path d={drawn.path} fill="#000" />
    </svg>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <Text fz="sm" c="dimmed" w={130} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text fz="sm" fw={500} component="div">
        {children}
      </Text>
    </Group>
  );
}

function Sheet({ appointment }: { appointment: Appointment }) {
  const { t } = useTranslation(['schedules', 'common']);
  const session = useSession();
  const token = useQuery(checkInTokenQuery(appointment.id));
  const organisation = organisationName(session);
  return (
    <Stack gap="md">
      <Group gap="sm" data-print-hidden>
        <Anchor component={Link} to={areaPath(session.area, `appointments/${appointment.id}`)} fz="sm">
          ← {t('appointments.print.back')}
        </Anchor>
        <Button
          ml="auto"
          onClick={() => {
            window.print();
          }}
        >
          {t('appointments.print.print')}
        </Button>
      </Group>
      <Paper withBorder radius="md" p="xl" maw={640} data-print-sheet data-testid="appointment-sheet">
        <Stack gap="lg">
          <Stack gap={2}>
            {organisation === null ? null : (
              <Text fz="sm" c="dimmed">
                {organisation}
              </Text>
            )}
            <Title order={1} fz={24}>
              {t('appointments.print.title')}
            </Title>
          </Stack>
          <Stack gap={8}>
            <Line label={t('appointments.detail.patient')}>{appointment.patient.fullName}</Line>
            <Line label={t('appointments.print.patientCode')}>{appointment.patient.patientCode}</Line>
            <Line label={t('appointments.detail.doctor')}>{appointment.doctor.fullName}</Line>
            <Line label={t('appointments.detail.time')}>{appointmentTime(appointment)}</Line>
            <Line label={t('appointments.detail.place')}>{t(`appointments.place.${appointment.place}`)}</Line>
            <Line label={t('appointments.detail.reason')}>{appointment.reason}</Line>
          </Stack>
          <Group gap="lg" align="center" wrap="nowrap">
            {token.isPending ? <Loader size="sm" /> : null}
            {token.isError ? (
              <Alert color="red" variant="light" title={t('appointments.print.qrFailed')} data-print-hidden>
                {messageText(errorMessageFor(token.error))}
              </Alert>
            ) : null}
            {token.isSuccess ? (
              <>
                <CheckInQr token={token.data.token} label={t('appointments.print.qr')} />
                <Stack gap={6} maw={320}>
                  <Text fz="sm" fw={600}>
                    {t('appointments.print.qr')}
                  </Text>
                  <Text fz="sm">{t('appointments.print.qrHint')}</Text>
                  <Text fz={10} c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="check-in-code">
                    {t('appointments.print.code', { code: token.data.token })}
                  </Text>
                </Stack>
              </>
            ) : null}
          </Group>
          <Box>
            <Text fz="xs" c="dimmed">
              {t('appointments.print.printedAt', { at: formatDateTime(new Date()) })}
            </Text>
          </Box>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /<area>/appointments/:id/print: the appointment sheet with its check-in QR code, for window.print(). */
export function AppointmentPrintPage() {
  const { t } = useTranslation('schedules');
  usePageTitle(t('appointments.print.title'));
  const { appointmentId = '' } = useParams();
  const appointment = useQuery(appointmentQuery(appointmentId));
  return (
    <>
      <style nonce={cspNonce()}>{PRINT_STYLE}</style>
      {appointment.isPending ? <LoadingState /> : null}
      {appointment.isError ? (
        <ErrorState
          error={appointment.error}
          title={t('appointments.detail.loadFailed')}
          onRetry={() => void appointment.refetch()}
        />
      ) : null}
      {appointment.isSuccess ? <Sheet appointment={appointment.data} /> : null}
    </>
  );
}
