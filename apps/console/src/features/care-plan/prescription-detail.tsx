import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  ColorSwatch,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Medicine, PrescriptionDetail } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime, toDisplayDate } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { MedicineModeBadge, PrescriptionStateBadge } from './care-plan-badges';
import { deactivatePrescription, prescriptionDetailQuery, refreshCarePlan } from './care-plan-api';
import { doseText, scheduleInWords } from './schedule-words';
import { UsageHistoryPanel } from './usage-history';

function Field({ label, children, span }: { label: string; children: ReactNode; span?: boolean }) {
  return (
    <Stack gap={2} style={span === true ? { gridColumn: '1 / -1' } : undefined}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

function MedicineCard({ medicine, number }: { medicine: Medicine; number: number }) {
  const { t, i18n } = useTranslation('carePlan');
  const none = t('detail.none');
  return (
    <Paper withBorder radius="md" p="md" data-testid="medicine-detail">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Group gap="sm" align="center">
            {medicine.color === null ? null : (
              <ColorSwatch
                color={medicine.color}
                size={16}
                aria-label={t('detail.colour', { colour: medicine.color })}
              />
            )}
            <Title order={4} fz="md">
              {t('detail.medicineTitle', { number, name: medicine.name })}
            </Title>
            {medicine.strength === null ? null : (
              <Text fz="sm" c="dimmed">
                {medicine.strength}
              </Text>
            )}
            {medicine.catalogueId === null ? null : (
              <Badge variant="outline" color="gray" tt="none" title={t('detail.catalogueCode')}>
                {medicine.catalogueId}
              </Badge>
            )}
          </Group>
          <MedicineModeBadge mode={medicine.mode} />
        </Group>
        <SimpleGrid cols={4} spacing="md" verticalSpacing="sm">
          <Field label={t('medicine.dose')}>
            <span data-testid="medicine-dose">
              {doseText(medicine.dose, medicine.doseUnit, t, i18n.language)}
            </span>
          </Field>
          <Field label={t('medicine.quantity')}>
            {medicine.quantity === null ? none : String(medicine.quantity)}
          </Field>
          <Field label={t('medicine.route')}>{t(`route.${medicine.route}`)}</Field>
          <Field label={t('medicine.form')}>{t(`medicineForm.${medicine.form}`)}</Field>
          <Field label={t('medicine.frequency')}>{t(`frequency.${medicine.frequencyCycle}`)}</Field>
          <Field label={t('medicine.timesOfDay')}>
            {medicine.timesOfDay.length === 0
              ? none
              : medicine.timesOfDay.map((time) => t(`timeOfDay.${time}`)).join(', ')}
          </Field>
          <Field label={t('medicine.meal')}>{t(`meal.${medicine.meal}`)}</Field>
          <Field label={t('medicine.reminders')} span>
            <span data-testid="medicine-schedule">
              {medicine.schedule === null
                ? t('words.onDemand')
                : scheduleInWords(medicine.schedule, t, i18n.language)}
            </span>
          </Field>
          {medicine.instructions === null ? null : (
            <Field label={t('medicine.instructions')} span>
              {medicine.instructions}
            </Field>
          )}
          {medicine.sideEffects === null ? null : (
            <Field label={t('medicine.sideEffects')} span>
              {medicine.sideEffects}
            </Field>
          )}
          {medicine.note === null ? null : (
            <Field label={t('medicine.note')} span>
              {medicine.note}
            </Field>
          )}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** Where it came from and what became of it: the version it replaced, the one replacing it. */
function Lineage({ detail, onOpen }: { detail: PrescriptionDetail; onOpen: (id: string) => void }) {
  const { t } = useTranslation('carePlan');
  const { replacesId, replacedById } = detail;
  return (
    <>
      {replacedById === null ? null : (
        <Alert color="blue" variant="light" data-testid="replaced-by">
          <Group gap="xs">
            <Text fz="sm">{t('detail.replacedBy')}</Text>
            <Anchor
              component="button"
              type="button"
              fz="sm"
              onClick={() => {
                onOpen(replacedById);
              }}
            >
              {t('detail.openReplacement')}
            </Anchor>
          </Group>
        </Alert>
      )}
      {detail.deactivatedAt !== null && replacedById === null ? (
        <Alert color="gray" variant="light" data-testid="deactivated-notice">
          {t('detail.deactivatedNotice', {
            date: formatDateTime(detail.deactivatedAt),
            name: detail.deactivatedBy?.fullName ?? t('detail.none'),
          })}
        </Alert>
      ) : null}
      {replacesId === null ? null : (
        <Group gap="xs" data-testid="replaces">
          <Text fz="sm" c="dimmed">
            {t('detail.replaces')}
          </Text>
          <Anchor
            component="button"
            type="button"
            fz="sm"
            onClick={() => {
              onOpen(replacesId);
            }}
          >
            {t('detail.openReplaced')}
          </Anchor>
        </Group>
      )}
    </>
  );
}

/**
 * One prescription (spec §2 detail): its fields, medicines with their doses and reminders in
 * words, who wrote and deactivated it, the versions before and after it, and its usage history.
 * A prescriber edits (the server deactivates it and writes a successor), deactivates it for good
 * after confirming, or reuses it as a new prescription starting today.
 */
export function PrescriptionDetailPanel({
  patientId,
  prescriptionId,
  onBack,
  onOpen,
  onEdit,
  onReuse,
}: {
  patientId: string;
  prescriptionId: string;
  onBack: () => void;
  onOpen: (id: string) => void;
  onEdit: (detail: PrescriptionDetail) => void;
  onReuse: (detail: PrescriptionDetail) => void;
}) {
  const { t } = useTranslation('carePlan');
  const queryClient = useQueryClient();
  const detail = useQuery(prescriptionDetailQuery(patientId, prescriptionId));
  const [isConfirming, setConfirming] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const deactivate = useMutation({
    mutationFn: () => deactivatePrescription(patientId, prescriptionId),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('detail.deactivated'));
      refreshCarePlan(queryClient);
      setConfirming(false);
    },
  });
  // Keyboard and screen-reader users land on the prescription they opened.
  const hasData = detail.isSuccess;
  useEffect(() => {
    if (hasData) headingRef.current?.focus();
  }, [hasData, prescriptionId]);

  const none = t('detail.none');
  return (
    <Stack gap="md" data-testid="prescription-detail">
      <Anchor component="button" type="button" fz="sm" onClick={onBack} style={{ alignSelf: 'flex-start' }}>
        {t('detail.back')}
      </Anchor>
      {detail.isPending ? <LoadingState /> : null}
      {detail.isError ? (
        <ErrorState
          error={detail.error}
          title={t('detail.loadFailed')}
          onRetry={() => void detail.refetch()}
        />
      ) : null}
      {detail.isSuccess ? (
        <>
          <Paper withBorder radius="md" p="lg">
            <Stack gap="md">
              <Group justify="space-between" align="flex-start">
                <Stack gap={4}>
                  <Group gap="sm">
                    <Title order={2} fz="xl" ref={headingRef} tabIndex={-1} data-testid="prescription-title">
                      {detail.data.name}
                    </Title>
                    <PrescriptionStateBadge state={detail.data.state} />
                  </Group>
                  <Text fz="sm" c="dimmed" ff={detail.data.rxNumber === null ? undefined : 'monospace'}>
                    {detail.data.rxNumber === null
                      ? t('list.noRx')
                      : t('list.rx', { number: detail.data.rxNumber })}
                  </Text>
                </Stack>
                <Can permission="health.prescribe">
                  <Group gap="sm">
                    {detail.data.deactivatedAt === null ? (
                      <Button
                        variant="light"
                        onClick={() => {
                          onEdit(detail.data);
                        }}
                      >
                        {t('detail.edit')}
                      </Button>
                    ) : null}
                    <Button
                      variant="default"
                      onClick={() => {
                        onReuse(detail.data);
                      }}
                    >
                      {t('detail.reuse')}
                    </Button>
                    {detail.data.deactivatedAt === null ? (
                      <Button
                        color="red"
                        variant="outline"
                        onClick={() => {
                          deactivate.reset();
                          setConfirming(true);
                        }}
                      >
                        {t('detail.deactivate')}
                      </Button>
                    ) : null}
                  </Group>
                </Can>
              </Group>
              <Lineage detail={detail.data} onOpen={onOpen} />
              <SimpleGrid cols={4} spacing="lg" verticalSpacing="md">
                <Field label={t('fields.doctorInCharge')}>{detail.data.doctorInCharge.fullName}</Field>
                <Field label={t('fields.startDate')}>{toDisplayDate(detail.data.startDate)}</Field>
                <Field label={t('fields.endDate')}>{toDisplayDate(detail.data.endDate)}</Field>
                <Field label={t('fields.totalDays')}>
                  {t('list.days', { count: detail.data.totalDays })}
                </Field>
                <Field label={t('fields.refills')}>{String(detail.data.refills)}</Field>
                <Field label={t('detail.writtenBy')}>
                  {t('detail.byOn', {
                    name: detail.data.createdBy.fullName,
                    date: formatDateTime(detail.data.createdAt),
                  })}
                </Field>
                <Field label={t('detail.deactivatedBy')}>
                  {detail.data.deactivatedAt === null
                    ? none
                    : t('detail.byOn', {
                        name: detail.data.deactivatedBy?.fullName ?? none,
                        date: formatDateTime(detail.data.deactivatedAt),
                      })}
                </Field>
                <Field label={t('fields.diagnosis')} span>
                  {detail.data.diagnosis ?? none}
                </Field>
                <Field label={t('fields.noteForPatient')} span>
                  {detail.data.noteForPatient ?? none}
                </Field>
              </SimpleGrid>
            </Stack>
          </Paper>
          <Stack gap="sm">
            <Title order={3} fz="md">
              {t('detail.medicines', { count: detail.data.medicines.length })}
            </Title>
            {[...detail.data.medicines]
              .sort((a, b) => a.position - b.position)
              .map((medicine, index) => (
                <MedicineCard key={medicine.id} medicine={medicine} number={index + 1} />
              ))}
          </Stack>
          <UsageHistoryPanel patientId={patientId} prescriptionId={detail.data.id} />
          <ConfirmDialog
            isOpen={isConfirming}
            title={t('detail.deactivateTitle')}
            text={t('detail.deactivateText', { name: detail.data.name })}
            confirmLabel={t('detail.deactivate')}
            confirmColor="red"
            isPending={deactivate.isPending}
            error={deactivate.error}
            errorTestId="deactivate-error"
            onConfirm={() => {
              if (!deactivate.isPending) deactivate.mutate();
            }}
            onClose={() => {
              setConfirming(false);
            }}
          />
        </>
      ) : null}
    </Stack>
  );
}
