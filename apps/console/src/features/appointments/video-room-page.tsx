import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { AppointmentVideo } from '@rpm/contracts';
import type { CallState } from '@rpm/video-call';
import { useVideoCall } from '@rpm/video-call/react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime, formatNumber } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { latestReadingsQuery } from '../health/health-api';
import { LatestTiles } from '../health/latest-tiles';
import { areaPath } from '../shell/navigation';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { useNow } from './appointment-badges';
import { appointmentVideoQuery } from './appointments-api';

const STATE_COLORS: Record<CallState, string> = {
  connecting: 'gray',
  waiting: 'blue',
  joining: 'blue',
  connected: 'teal',
  reconnecting: 'yellow',
  ended: 'gray',
  refused: 'red',
};

/** The live channel, with the console's session cookie. */
function openLiveSocket(): WebSocket {
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocket(`${protocol}//${window.location.host}/ws`);
}

/** The patient's latest vitals beside the call, refreshed every 30 seconds. */
function VitalsPanel({ patientId }: { patientId: string }) {
  const latest = useQuery({ ...latestReadingsQuery(patientId), refetchInterval: 30_000 });
  return (
    <Paper withBorder radius="md" p="md" data-testid="call-vitals">
      <LatestTiles query={latest} narrow />
    </Paper>
  );
}

/** The call itself: the camera and microphone, the two videos, the controls and the link quality. */
function Call({ room, onLeft }: { room: AppointmentVideo; onLeft: () => void }) {
  const { t } = useTranslation('schedules');
  const call = useVideoCall({
    appointmentId: room.appointmentId,
    role: 'DOCTOR',
    iceServers: room.iceServers,
    openSocket: openLiveSocket,
  });
  const { state, stats, mediaError, isOver } = call;

  if (mediaError !== undefined) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('video.mediaErrorTitle')}>
        {t(mediaError === 'NotAllowedError' ? 'video.mediaDenied' : 'video.mediaMissing')}
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Badge color={STATE_COLORS[state]} variant="light" tt="none" data-testid="call-state" data-state={state}>
          {t(`video.state.${state}`, { name: room.peerName })}
        </Badge>
        {stats !== undefined && state === 'connected' ? (
          <Text fz="xs" c="dimmed" data-testid="call-stats" data-frames={stats.framesDecoded}>
            {t('video.stats', {
              frames: formatNumber(stats.framesDecoded, 0),
              fps: stats.framesPerSecond === null ? '—' : formatNumber(stats.framesPerSecond, 0),
              rtt: stats.roundTripMilliseconds === null ? '—' : formatNumber(stats.roundTripMilliseconds, 0),
            })}
            {stats.relayed ? ` · ${t('video.relayed')}` : ''}
          </Text>
        ) : null}
      </Group>
      {state === 'refused' ? (
        <Alert color="red" variant="light" role="alert">
          {messageText({ key: `errors:${call.detail ?? 'common.default'}` })}
        </Alert>
      ) : null}
      <div style={{ position: 'relative', background: '#101418', borderRadius: 8, aspectRatio: '16 / 9', overflow: 'hidden' }}>
        <video
          ref={call.remoteVideo}
          autoPlay
          playsInline
          data-testid="remote-video"
          aria-label={t('video.remoteVideo', { name: room.peerName })}
          style={{ width: '100%', height: '100%', objectFit: 'contain' }}
        />
        <video
          ref={call.localVideo}
          autoPlay
          playsInline
          muted
          data-testid="local-video"
          aria-label={t('video.localVideo')}
          style={{ position: 'absolute', right: 12, bottom: 12, width: '22%', borderRadius: 6, transform: 'scaleX(-1)', border: '2px solid white' }}
        />
      </div>
      <Group gap="sm">
        <Button
          variant={call.isMicOn ? 'default' : 'filled'}
          color={call.isMicOn ? undefined : 'orange'}
          aria-pressed={!call.isMicOn}
          disabled={isOver}
          onClick={call.toggleMic}
        >
          {call.isMicOn ? t('video.mute') : t('video.unmute')}
        </Button>
        <Button
          variant={call.isCameraOn ? 'default' : 'filled'}
          color={call.isCameraOn ? undefined : 'orange'}
          aria-pressed={!call.isCameraOn}
          disabled={isOver}
          onClick={call.toggleCamera}
        >
          {call.isCameraOn ? t('video.cameraOff') : t('video.cameraOn')}
        </Button>
        <Button variant="default" disabled={isOver} onClick={call.reconnect}>
          {t('video.reconnect')}
        </Button>
        <Button
          color="red"
          disabled={isOver}
          onClick={() => {
            call.hangUp();
            onLeft();
          }}
        >
          {t('video.hangUp')}
        </Button>
      </Group>
    </Stack>
  );
}

function Room({ room }: { room: AppointmentVideo }) {
  const { t } = useTranslation('schedules');
  const session = useSession();
  const now = useNow();
  const [isJoined, setJoined] = useState(false);
  const [hasLeft, setLeft] = useState(false);
  const opens = new Date(room.opensAt).getTime();
  const closes = new Date(room.closesAt).getTime();
  const isOpen = room.isOpen && now.getTime() >= opens && now.getTime() < closes;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={areaPath(session.area, `appointments/${room.appointmentId}`)} fz="sm">
        ← {t('video.back')}
      </Anchor>
      <Title order={1} fz={26}>
        {t('video.title', { name: room.peerName })}
      </Title>
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Stack style={{ flex: '2 1 0', minWidth: 0 }}>
          {isJoined && !hasLeft ? (
            <Call
              room={room}
              onLeft={() => {
                setLeft(true);
              }}
            />
          ) : hasLeft ? (
            <Alert color="gray" variant="light" data-testid="call-ended">
              {t('video.left')}
            </Alert>
          ) : isOpen ? (
            <Paper withBorder radius="md" p="lg">
              <Stack gap="sm" align="flex-start">
                <Text>{t('video.ready', { name: room.peerName })}</Text>
                <Button
                  onClick={() => {
                    setJoined(true);
                  }}
                >
                  {t('video.join')}
                </Button>
              </Stack>
            </Paper>
          ) : (
            <Alert color="blue" variant="light" data-testid="room-closed">
              {now.getTime() < opens
                ? t('video.opensAt', { at: formatDateTime(room.opensAt) })
                : t('video.closed')}
            </Alert>
          )}
        </Stack>
        <Stack style={{ flex: '1 1 0', minWidth: 260 }}>
          <VitalsPanel patientId={room.patientId} />
        </Stack>
      </Group>
    </Stack>
  );
}

/** The video room of an online appointment, for its doctor (spec §2 video meeting room). */
export function VideoRoomPage() {
  const { t } = useTranslation('schedules');
  const { appointmentId = '' } = useParams();
  usePageTitle(t('video.pageTitle'));
  const room = useQuery(appointmentVideoQuery(appointmentId));
  if (room.isPending) return <LoadingState />;
  if (room.isError) return <ErrorState error={room.error} onRetry={() => void room.refetch()} />;
  return <Room room={room.data} />;
}
