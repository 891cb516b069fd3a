import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PatientStatusHistoryEntry } from '@rpm/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { patientHistoryQuery } from './patients-api';
import { PatientStatusBadge } from './patient-status-badge';

/**
 * Why a status changed, as a sentence in the reader's language: automatic changes carry a reason
 * code and its values (contracts STATUS_REASON_CODES), a staff member's change MANUAL with their
 * note; older rows their text.
 */
function reasonSentence(
  entry: PatientStatusHistoryEntry,
  t: TFunction<'patients'>,
  tHealth: TFunction<'health'>,
  language: string,
): string {
  const params = entry.reasonParams;
  switch (entry.reasonCode) {
    case 'READING': {
      const measure = String(params.measure ?? '');
      const value =
        typeof params.value === 'number' ? new Intl.NumberFormat(language).format(params.value) : '';
      return t('history.reasons.READING', {
        measure: tHealth(`measures.${measure}`, { defaultValue: measure }),
        value,
        unit: String(params.unit ?? ''),
      });
    }
    case 'EVENT': {
      const source = String(params.source ?? '');
      const sentence = t(`history.reasons.EVENT_${source}`, { defaultValue: source });
      return typeof params.note === 'string' && params.note !== '' ? `${sentence}: ${params.note}` : sentence;
    }
    case 'SETTLED':
      return t('history.reasons.SETTLED', { minutes: Number(params.minutes ?? 0) });
    case 'CASE_CLOSED':
    case 'TICKET_CLOSED':
      return t(`history.reasons.${entry.reasonCode}`);
    case 'MANUAL':
      return t('history.reasons.MANUAL', { note: String(params.text ?? entry.reason) });
    default:
      return entry.reason;
  }
}

/** The status changes of a patient, newest first, with who made them and why. */
export function PatientHistory({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('patients');
  const { t: tHealth } = useTranslation('health');
  const history = useQuery(patientHistoryQuery(patientId));
  if (history.isPending) return <LoadingState />;
  if (history.isError)
    return (
      <ErrorState
        error={history.error}
        title={t('history.loadError')}
        onRetry={() => void history.refetch()}
      />
    );
  if (history.data.length === 0) return <EmptyList title={t('history.empty')} />;
  return (
    <Table verticalSpacing="sm" aria-label={t('profile.tabs.history')} data-testid="status-history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('history.at')}</Table.Th>
          <Table.Th>{t('history.from')}</Table.Th>
          <Table.Th>{t('history.to')}</Table.Th>
          <Table.Th>{t('history.reason')}</Table.Th>
          <Table.Th>{t('history.by')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.data.map((entry) => (
          <Table.Tr key={entry.id} data-testid="history-row">
            <Table.Td>{formatDateTime(entry.changedAt)}</Table.Td>
            <Table.Td>
              <PatientStatusBadge status={entry.fromStatus} />
            </Table.Td>
            <Table.Td>
              <PatientStatusBadge status={entry.toStatus} />
            </Table.Td>
            <Table.Td>
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {reasonSentence(entry, t, tHealth, i18n.language)}
              </Text>
            </Table.Td>
            <Table.Td>{entry.changedBy?.fullName ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
