import type { Permission, RoleArea } from '@rpm/contracts';
import { Button, Group, Loader, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime, formatNumber } from '../../lib/format';
import { sosCaseDetailQuery } from '../monitoring/monitoring-api';
import { SOS_CASE_READ_PERMISSIONS } from '../monitoring/monitoring-routes';
import { useNow, VitalAgeLabel } from '../health/vital-age-label';
import { formatVitalAge, vitalAge } from '../health/vital-age';
import { areaPath } from '../shell/navigation';
import { usePermissions } from '../shell/permissions';
import type { SosAlert, SosVital } from './sos-alert';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text fz="sm" c="dimmed" w={110}>
        {label}
      </Text>
      <Text fz="sm" fw={500}>
        {value}
      </Text>
    </Group>
  );
}

function VitalList({ vitals }: { vitals: readonly SosVital[] }) {
  const { t } = useTranslation(['realtime', 'monitoring']);
  if (vitals.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        {t('realtime:sos.noVitals')}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="sos-popup-vitals">
      {vitals.map((vital) => (
        <Group key={`${vital.measure}-${vital.measuredAt}`} gap="xs" wrap="nowrap" align="baseline">
          <Text fz="sm" fw={600} data-testid="sos-popup-vital">
            {t(`monitoring:measure.${vital.measure}`, { defaultValue: vital.measure })} {formatNumber(Math.round(vital.value * 10) / 10)}
          </Text>
          <VitalAgeLabel measuredAt={vital.measuredAt} showDate={false} />
        </Group>
      ))}
    </Stack>
  );
}

/** The case's vitals, for an event that does not carry them (read only by those who may read the case). */
function CaseVitals({ caseId }: { caseId: string }) {
  const { t } = useTranslation('realtime');
  const detail = useQuery({ ...sosCaseDetailQuery(caseId), meta: { errorDisplay: 'inline' } });
  if (detail.isPending) return <Loader size="xs" aria-label={t('sos.vitalsLoading')} />;
  if (detail.isError)
    return (
      <Text fz="sm" c="dimmed">
        {t('sos.vitalsUnavailable')}
      </Text>
    );
  return <VitalList vitals={detail.data.vitals} />;
}

/** The vital signs at the SOS with their age: from the event, else from the case where the receiver may read it. */
function SosVitals({ alert, mayReadCase }: { alert: SosAlert; mayReadCase: boolean }) {
  const { t } = useTranslation('realtime');
  if (alert.vitals === null && !mayReadCase) return null;
  return (
    <Stack gap={4}>
      <Text fz="sm" c="dimmed">
        {t('sos.vitals')}
      </Text>
      {alert.vitals === null ? <CaseVitals caseId={alert.caseId} /> : <VitalList vitals={alert.vitals} />}
    </Stack>
  );
}

/**
 * Where the popup's main button leads, as far as the receiver may go: the case (handlers and the
 * patient's clinicians), else the patient's profile, else nowhere (the popup only informs).
 */
export function sosPopupTarget(
  can: (permission: Permission) => boolean,
  alert: Pick<SosAlert, 'caseId' | 'patientId'>,
): { kind: 'case'; path: string } | { kind: 'patient'; path: string } | null {
  if (SOS_CASE_READ_PERMISSIONS.some((permission) => can(permission)))
    return { kind: 'case', path: `sos/${alert.caseId}` };
  if (alert.patientId !== null && can('user.view')) return { kind: 'patient', path: `patients/${alert.patientId}` };
  return null;
}

/** The SOS popup: the oldest open alert first, with the patient, time, location and a way to the case. */
export function SosPopup({
  alerts,
  area,
  onDismiss,
}: {
  alerts: readonly SosAlert[];
  area: RoleArea;
  onDismiss: (caseId: string) => void;
}) {
  const { t, i18n } = useTranslation('realtime');
  const navigate = useNavigate();
  const { can } = usePermissions();
  const now = useNow();
  const alert = alerts[0];
  const target = alert ? sosPopupTarget(can, alert) : null;
  const age = alert ? vitalAge(alert.openedAt, now) : null;
  return (
    <Modal
      opened={alert !== undefined}
      onClose={() => {
        if (alert) onDismiss(alert.caseId);
      }}
      withCloseButton
      closeButtonProps={{ 'aria-label': t('sos.dismiss') }}
      centered
      title={
        <Group gap="sm">
          <ThemeIcon color="red" radius="xl" size="md" aria-hidden>
            !
          </ThemeIcon>
          <Text fw={700} c="red.8">
            {t('sos.title')}
          </Text>
        </Group>
      }
      data-testid="sos-popup"
    >
      {alert ? (
        <Stack gap="sm" role="alert">
          <Field label={t('sos.patient')} value={alert.patientName ?? t('sos.unknownPatient')} />
          <Field
            label={t('sos.time')}
            value={`${formatDateTime(alert.openedAt)}${age === null ? '' : ` · ${formatVitalAge(age, i18n.language)}`}`}
          />
          <Field label={t('sos.location')} value={alert.location ?? t('sos.noLocation')} />
          <SosVitals key={alert.caseId} alert={alert} mayReadCase={target?.kind === 'case'} />
          {alert.reason ? (
            <Field
              label={t('sos.reason')}
              value={t(`sos.reasons.${alert.reason}`, { defaultValue: alert.reason })}
            />
          ) : null}
          {alerts.length > 1 ? (
            <Text fz="xs" c="dimmed">
              {t('sos.more', { count: alerts.length - 1 })}
            </Text>
          ) : null}
          <Group justify="flex-end" mt="sm">
            <Button
              variant="default"
              onClick={() => {
                onDismiss(alert.caseId);
              }}
            >
              {t('sos.later')}
            </Button>
            {target === null ? null : (
              <Button
                color="red"
                data-autofocus
                onClick={() => {
                  onDismiss(alert.caseId);
                  void navigate(areaPath(area, target.path));
                }}
              >
                {target.kind === 'case' ? t('sos.open') : t('sos.openPatient')}
              </Button>
            )}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
