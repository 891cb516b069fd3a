import { appointmentVideoSchema, LIVE_BEARER_PROTOCOL, type AppointmentVideo } from '@rpm/contracts';
import { useVideoCall } from '@rpm/video-call/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { loadSession } from '../../api/session-store';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';

const videoQuery = (id: string) => ({
  queryKey: [SESSION_QUERY_ROOT, 'appointments', 'video', id],
  queryFn: () => api.get(`/health/me/appointments/${encodeURIComponent(id)}/video`, appointmentVideoSchema),
  staleTime: 60_000,
});

/** The live channel with the app's bearer token (a browser WebSocket sends no Authorization header). */
function openSocket(): WebSocket {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return new WebSocket(`${scheme}://${location.host}/ws`, [LIVE_BEARER_PROTOCOL, loadSession()?.accessToken ?? '']);
}

/** Re-renders every `intervalMs` with the time now (the room opening). */
function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}

function Call({ room, onLeft }: { room: AppointmentVideo; onLeft: () => void }) {
  const { t, i18n } = useTranslation('appAppointments');
  const call = useVideoCall({
    appointmentId: room.appointmentId,
    role: 'PATIENT',
    iceServers: room.iceServers,
    openSocket,
    video: { facingMode: 'user' },
  });
  const { state, stats, isOver } = call;

  if (call.mediaError !== undefined)
    return <Alert>{t(call.mediaError === 'NotAllowedError' ? 'room.mediaDenied' : 'room.mediaMissing')}</Alert>;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return (
    <section aria-label={t('room.callRegion')}>
      <p className="video-status" role="status">
        <span className={`badge video-state-${state}`} data-testid="call-state" data-state={state}>
          {t(`room.state.${state}`, { name: room.peerName })}
        </span>
        {stats !== undefined && state === 'connected' ? (
          <span className="video-stats" data-testid="call-stats" data-frames={stats.framesDecoded}>
            {t('room.stats', {
              frames: number.format(stats.framesDecoded),
              rtt: stats.roundTripMilliseconds === null ? '—' : number.format(stats.roundTripMilliseconds),
            })}
          </span>
        ) : null}
      </p>
      {state === 'refused' ? <Alert>{t(`errors:${call.detail ?? 'common.default'}`)}</Alert> : null}
      <div className="video-stage">
        <video
          ref={call.remoteVideo}
          className="video-remote"
          autoPlay
          playsInline
          data-testid="remote-video"
          aria-label={t('room.remoteVideo', { name: room.peerName })}
        />
        <video
          ref={call.localVideo}
          className="video-local"
          autoPlay
          playsInline
          muted
          data-testid="local-video"
          aria-label={t('room.localVideo')}
        />
      </div>
      <div className="video-controls">
        <button
          type="button"
          aria-pressed={!call.isMicOn}
          disabled={isOver}
          onClick={call.toggleMic}
        >
          {call.isMicOn ? t('room.mute') : t('room.unmute')}
        </button>
        <button
          type="button"
          aria-pressed={!call.isCameraOn}
          disabled={isOver}
          onClick={call.toggleCamera}
        >
          {call.isCameraOn ? t('room.cameraOff') : t('room.cameraOn')}
        </button>
        <button type="button" disabled={isOver} onClick={call.reconnect}>
          {t('room.reconnect')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={isOver}
          onClick={() => {
            call.hangUp();
            onLeft();
          }}
        >
          {t('room.hangUp')}
        </button>
      </div>
    </section>
  );
}

/** The video room of one of the account's online appointments (spec §2 video meeting room). */
export function VideoPage() {
  const { t, i18n } = useTranslation('appAppointments');
  const { id = '' } = useParams();
  const room = useQuery(videoQuery(id));
  const now = useNow();
  const [isJoined, setJoined] = useState(false);
  const [hasLeft, setLeft] = useState(false);

  let body;
  if (room.isPending) body = <p role="status">{t('room.loading')}</p>;
  else if (room.isError) body = <Alert>{errorMessage(room.error)}</Alert>;
  else {
    const opens = new Date(room.data.opensAt).getTime();
    const isOpen = room.data.isOpen && now >= opens && now < new Date(room.data.closesAt).getTime();
    const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    body =
      isJoined && !hasLeft ? (
        <Call
          room={room.data}
          onLeft={() => {
            setLeft(true);
          }}
        />
      ) : hasLeft ? (
        <p className="card" data-testid="call-ended">
          {t('room.left')}
        </p>
      ) : isOpen ? (
        <div className="card">
          <p>{t('room.ready', { name: room.data.peerName })}</p>
          <button
            type="button"
            className="primary"
            onClick={() => {
              setJoined(true);
            }}
          >
            {t('room.join')}
          </button>
        </div>
      ) : (
        <p className="card" data-testid="room-closed">
          {now < opens ? t('room.opensAt', { at: time.format(opens) }) : t('room.closed')}
        </p>
      );
  }
  return (
    <div className="video-page">
      <p>
        <Link to={`/appointments/${encodeURIComponent(id)}`}>← {t('room.back')}</Link>
      </p>
      <h1>{room.data === undefined ? t('room.heading') : t('room.title', { name: room.data.peerName })}</h1>
      {body}
    </div>
  );
}
