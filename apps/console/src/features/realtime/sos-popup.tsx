import type { RoleArea } from '@rpm/contracts';
import { Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../lib/format-date';
import { areaPath } from '../shell/navigation';
import type { SosAlert } from './sos-alert';

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
  const { t } = useTranslation('realtime');
  const navigate = useNavigate();
  const alert = alerts[0];
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
          <Field label={t('sos.time')} value={formatDateTime(alert.openedAt)} />
          <Field label={t('sos.location')} value={alert.location ?? t('sos.noLocation')} />
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
            <Button
              color="red"
              data-autofocus
              onClick={() => {
                onDismiss(alert.caseId);
                void navigate(areaPath(area, `sos/${alert.caseId}`));
              }}
            >
              {t('sos.open')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
