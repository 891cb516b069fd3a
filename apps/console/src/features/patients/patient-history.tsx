import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { patientHistoryQuery } from './patients-api';
import { PatientStatusBadge } from './patient-status-badge';

/** The status changes of a patient, newest first, with who made them and why. */
export function PatientHistory({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patients');
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
                {entry.reason}
              </Text>
            </Table.Td>
            <Table.Td>{entry.changedBy?.fullName ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
