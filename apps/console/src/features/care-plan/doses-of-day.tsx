import { useState } from 'react';
import { ActionIcon, Button, ColorSwatch, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTime, parseDisplayDate, toDisplayDate } from '../../lib/format';
import { DateField } from '../shell/date-field';
import { ChevronRightIcon } from '../shell/icons';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { IntakeStateBadge } from './care-plan-badges';
import { intakesQuery } from './care-plan-api';
import { useCarePlanToday } from './care-plan-today';
import { addDays } from './form-values';
import { doseText } from './schedule-words';

/**
 * The patient's doses of one day (spec §4 medication intake), in time order with their state: today
 * at first (the patient's today, as the server counts it), any other day by typing it or stepping.
 */
export function DosesOfDay({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('carePlan');
  const today = useCarePlanToday();
  // null: the patient's today.
  const [day, setDay] = useState<string | null>(null);
  // What is being typed in the day field, until it is a whole date (null: the day shown).
  const [typed, setTyped] = useState<string | null>(null);
  const doses = useQuery(intakesQuery(patientId, day));
  const shownDay = day ?? doses.data?.[0]?.localDate ?? today;
  const isToday = day === null || day === today;
  const step = (days: number) => {
    const next = addDays(shownDay, days);
    setTyped(null);
    setDay(next === today ? null : next);
  };
  return (
    <Paper withBorder radius="md" p="lg" data-testid="doses-of-day">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <Stack gap={2}>
            <Title order={3} fz="md">
              {isToday ? t('doses.titleToday') : t('doses.title', { date: toDisplayDate(shownDay) })}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('doses.subtitle')}
            </Text>
          </Stack>
          <Group gap="xs" align="flex-end">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('doses.previousDay')}
              onClick={() => {
                step(-1);
              }}
            >
              <ChevronRightIcon style={{ transform: 'rotate(180deg)' }} />
            </ActionIcon>
            <DateField
              label={t('doses.day')}
              value={typed ?? toDisplayDate(shownDay)}
              error={undefined}
              width={130}
              onChange={(text) => {
                const chosen = parseDisplayDate(text);
                setTyped(chosen === null ? text : null);
                if (chosen !== null) setDay(chosen === today ? null : chosen);
              }}
            />
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('doses.nextDay')}
              onClick={() => {
                step(1);
              }}
            >
              <ChevronRightIcon />
            </ActionIcon>
            <Button
              variant="default"
              disabled={day === null}
              onClick={() => {
                setTyped(null);
                setDay(null);
              }}
            >
              {t('doses.today')}
            </Button>
          </Group>
        </Group>
        {doses.isPending ? <LoadingState /> : null}
        {doses.isError ? (
          <ErrorState
            error={doses.error}
            title={t('doses.loadFailed')}
            onRetry={() => void doses.refetch()}
          />
        ) : null}
        {doses.isSuccess && doses.data.length === 0 ? <EmptyList title={t('doses.empty')} /> : null}
        {doses.isSuccess && doses.data.length > 0 ? (
          <Table.ScrollContainer minWidth={820}>
            <Table
              verticalSpacing="xs"
              aria-label={t('doses.caption', { date: toDisplayDate(shownDay) })}
              data-testid="doses-table"
              style={{ opacity: doses.isPlaceholderData ? 0.6 : 1 }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('doses.columns.time')}</Table.Th>
                  <Table.Th>{t('doses.columns.medicine')}</Table.Th>
                  <Table.Th>{t('doses.columns.dose')}</Table.Th>
                  <Table.Th>{t('doses.columns.prescription')}</Table.Th>
                  <Table.Th>{t('doses.columns.state')}</Table.Th>
                  <Table.Th>{t('doses.columns.answered')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {doses.data.map((dose) => (
                  <Table.Tr key={dose.id} data-testid="dose-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text fz="sm" fw={600} ff="monospace" data-testid="dose-time">
                        {dose.localTime}
                      </Text>
                      <Text fz="xs" c="dimmed">
                        {dose.label}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        {dose.color === null ? null : (
                          <ColorSwatch color={dose.color} size={12} aria-hidden />
                        )}
                        <Text fz="sm" fw={600} data-testid="dose-medicine">
                          {dose.medicineName}
                        </Text>
                      </Group>
                      {dose.strength === null ? null : (
                        <Text fz="xs" c="dimmed">
                          {dose.strength}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td fz="sm">
                      {doseText(dose.dose, dose.doseUnit, t, i18n.language)}
                      <Text fz="xs" c="dimmed">
                        {t(`meal.${dose.meal}`)}
                      </Text>
                    </Table.Td>
                    <Table.Td fz="sm">{dose.prescriptionName}</Table.Td>
                    <Table.Td>
                      <IntakeStateBadge state={dose.state} />
                    </Table.Td>
                    <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                      {dose.answeredAt === null ? '—' : formatTime(dose.answeredAt)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Paper>
  );
}
