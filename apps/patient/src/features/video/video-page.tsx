import { appointmentVideoSchema, LIVE_BEARER_PROTOCOL, type AppointmentVideo } from '@rpm/contracts';
import { VideoCall, type CallState, type CallStats } from '@rpm/video-call';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
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
  const localVideo = useRef<HTMLVideoElement>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const call = useRef<VideoCall | undefined>(undefined);
  const [state, setState] = useState<{ state: CallState; detail?: string }>({ state: 'connecting' });
  const [mediaError, setMediaError] = useState<string | undefined>();
  const [isMicOn, setMicOn] = useState(true);
  const [isCameraOn, setCameraOn] = useState(true);
  const [stats, setStats] = useState<CallStats | undefined>();
  // The servers as they were on joining: a refetch (new TURN credentials) must not restart the call.
  const [iceServers] = useState(room.iceServers);

  useEffect(() => {
    let isCancelled = false;
    let stream: MediaStream | undefined;
    void navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user' }, audio: true })
      .then((media) => {
        if (isCancelled) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        stream = media;
        if (localVideo.current) localVideo.current.srcObject = media;
        const created = new VideoCall({
          appointmentId: room.appointmentId,
          role: 'PATIENT',
          iceServers,
          localStream: media,
          openSocket,
          onState: (next, detail) => {
            setState({ state: next, detail });
          },
          onRemoteStream: (remote) => {
            if (remoteVideo.current) remoteVideo.current.srcObject = remote;
          },
          onStats: setStats,
        });
        call.current = created;
        created.start();
      })
      .catch((error: unknown) => {
        setMediaError(error instanceof DOMException ? error.name : 'Error');
      });
    return () => {
      isCancelled = true;
      call.current?.dispose();
      call.current = undefined;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [room.appointmentId, iceServers]);

  if (mediaError !== undefined)
    return <Alert>{t(mediaError === 'NotAllowedError' ? 'video.mediaDenied' : 'video.mediaMissing')}</Alert>;
  const isOver = state.state === 'ended' || state.state === 'refused';
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
  return (
    <section aria-label={t('room.callRegion')}>
      <p className="video-status" role="status">
        <span className={`badge video-state-${state.state}`} data-testid="call-state" data-state={state.state}>
          {t(`room.state.${state.state}`, { name: room.peerName })}
        </span>
        {stats !== undefined && state.state === 'connected' ? (
          <span className="video-stats" data-testid="call-stats" data-frames={stats.framesDecoded}>
            {t('room.stats', {
              frames: number.format(stats.framesDecoded),
              rtt: stats.roundTripMilliseconds === null ? '—' : number.format(stats.roundTripMilliseconds),
            })}
          </span>
        ) : null}
      </p>
      {state.state === 'refused' ? <Alert>{t(`errors:${state.detail ?? 'common.default'}`)}</Alert> : null}
      <div className="video-stage">
        <video
          ref={remoteVideo}
          className="video-remote"
          autoPlay
          playsInline
          data-testid="remote-video"
          aria-label={t('room.remoteVideo', { name: room.peerName })}
        />
        <video
          ref={localVideo}
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
          aria-pressed={!isMicOn}
          disabled={isOver}
          onClick={() => {
            call.current?.setMicrophoneOn(!isMicOn);
            setMicOn(!isMicOn);
          }}
        >
          {isMicOn ? t('room.mute') : t('room.unmute')}
        </button>
        <button
          type="button"
          aria-pressed={!isCameraOn}
          disabled={isOver}
          onClick={() => {
            call.current?.setCameraOn(!isCameraOn);
            setCameraOn(!isCameraOn);
          }}
        >
          {isCameraOn ? t('room.cameraOff') : t('room.cameraOn')}
        </button>
        <button type="button" disabled={isOver} onClick={() => call.current?.reconnect()}>
          {t('room.reconnect')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={isOver}
          onClick={() => {
            call.current?.hangUp();
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
