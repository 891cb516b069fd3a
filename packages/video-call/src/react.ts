import type { IceServer } from '@rpm/contracts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { VideoCall, type CallState, type CallStats } from './index.js';

export interface VideoCallView {
  localVideo: RefObject<HTMLVideoElement | null>;
  remoteVideo: RefObject<HTMLVideoElement | null>;
  state: CallState;
  /** The refusal's error code when `state` is `refused`. */
  detail: string | undefined;
  stats: CallStats | undefined;
  /** `NotAllowedError` (the user or the browser said no), or another name: no camera or microphone. */
  mediaError: string | undefined;
  isMicOn: boolean;
  isCameraOn: boolean;
  isOver: boolean;
  toggleMic: () => void;
  toggleCamera: () => void;
  reconnect: () => void;
  hangUp: () => void;
}

/**
 * A page's call: asks for the camera and microphone, starts the call once they are given, shows
 * them in `localVideo` and the other side in `remoteVideo`, and lets go of everything when the
 * page goes. The ICE servers are those of the first render: a refetch with fresh TURN credentials
 * must not restart a call under way.
 */
export function useVideoCall(options: {
  appointmentId: string;
  role: 'DOCTOR' | 'PATIENT';
  iceServers: IceServer[];
  openSocket: () => WebSocket;
  video?: MediaTrackConstraints | boolean;
}): VideoCallView {
  const localVideo = useRef<HTMLVideoElement>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const call = useRef<VideoCall | undefined>(undefined);
  const [state, setState] = useState<{ state: CallState; detail?: string }>({ state: 'connecting' });
  const [mediaError, setMediaError] = useState<string | undefined>();
  const [isMicOn, setMicOn] = useState(true);
  const [isCameraOn, setCameraOn] = useState(true);
  const [stats, setStats] = useState<CallStats | undefined>();
  const [first] = useState(() => ({ iceServers: options.iceServers, openSocket: options.openSocket, video: options.video ?? true }));
  const { appointmentId, role } = options;

  useEffect(() => {
    let isCancelled = false;
    let stream: MediaStream | undefined;
    void navigator.mediaDevices
      .getUserMedia({ video: first.video, audio: true })
      .then((media) => {
        if (isCancelled) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        stream = media;
        if (localVideo.current) localVideo.current.srcObject = media;
        const created = new VideoCall({
          appointmentId,
          role,
          iceServers: first.iceServers,
          localStream: media,
          openSocket: first.openSocket,
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
  }, [appointmentId, role, first]);

  return {
    localVideo,
    remoteVideo,
    state: state.state,
    detail: state.detail,
    stats,
    mediaError,
    isMicOn,
    isCameraOn,
    isOver: state.state === 'ended' || state.state === 'refused',
    toggleMic: () => {
      call.current?.setMicrophoneOn(!isMicOn);
      setMicOn(!isMicOn);
    },
    toggleCamera: () => {
      call.current?.setCameraOn(!isCameraOn);
      setCameraOn(!isCameraOn);
    },
    reconnect: () => {
      call.current?.reconnect();
    },
    hangUp: () => {
      call.current?.hangUp();
    },
  };
}
