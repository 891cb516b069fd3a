import { Card, Stack, Text, Title } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sosRecordingSchema } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { ErrorState, LoadingState } from '../shell/query-states';
import { SOS_CASES_QUERY_KEY } from './query-keys';

const recordingsQuery = (sosCaseId: string) =>
  queryOptions({
    queryKey: [...SOS_CASES_QUERY_KEY, 'recordings', sosCaseId],
    queryFn: ({ signal }) =>
      api.get(`/account/sos-cases/${encodeURIComponent(sosCaseId)}/recordings`, {
        schema: z.array(sosRecordingSchema),
        signal,
      }),
    meta: { errorDisplay: 'inline' },
  });

/**
 * The voice messages the patient recorded after pressing SOS (spec §2 SOS recording), each
 * playable here: the `<audio>` element loads its bytes with the console's session cookie, through
 * a GET the server audits.
 */
export function SosRecordings({ sosCaseId }: { sosCaseId: string }) {
  const { t } = useTranslation('monitoring');
  const recordings = useQuery(recordingsQuery(sosCaseId));
  return (
    <Card withBorder radius="md" data-testid="sos-recordings">
      <Title order={2} fz="md" mb="sm">
        {t('recordings.title')}
      </Title>
      {recordings.isPending ? <LoadingState /> : null}
      {recordings.isError ? (
        <ErrorState error={recordings.error} title={t('recordings.loadError')} onRetry={() => void recordings.refetch()} />
      ) : null}
      {recordings.data?.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t('recordings.empty')}
        </Text>
      ) : null}
      <Stack gap="sm">
        {recordings.data?.map((recording, index) => {
          const label = t('recordings.item', {
            n: index + 1,
            seconds: recording.durationSeconds,
            at: formatDateTime(recording.createdAt),
          });
          return (
            <Stack key={recording.id} gap={4}>
              <Text fz="sm">{label}</Text>
              <audio
                controls
                preload="metadata"
                aria-label={label}
                src={`/account/sos-cases/${encodeURIComponent(sosCaseId)}/recordings/${encodeURIComponent(recording.id)}`}
                style={{ width: '100%' }}
              />
            </Stack>
          );
        })}
      </Stack>
    </Card>
  );
}
