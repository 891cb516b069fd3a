import { useCallback, useEffect, useRef, useState } from 'react';

export type RecorderState =
  | { kind: 'idle' }
  | { kind: 'recording'; elapsed: number }
  | { kind: 'done'; audio: Blob; seconds: number }
  | { kind: 'denied' }
  | { kind: 'unsupported' };

/** Types the server keeps, in the order a phone is asked for them (Chromium: WebM, Firefox: Ogg, Safari: MP4). */
const TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

function pickType(): string | undefined {
  if (typeof MediaRecorder === 'undefined') return undefined;
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type));
}

/**
 * A voice recording with MediaRecorder, stopped by the patient or at `maxSeconds`. The microphone
 * is released as soon as the recording ends (or the screen goes away).
 */
export function useRecorder(maxSeconds: number) {
  const [state, setState] = useState<RecorderState>({ kind: 'idle' });
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const release = useCallback(() => {
    clearInterval(timer.current);
    recorder.current?.stream.getTracks().forEach((track) => {
      track.stop();
    });
  }, []);

  const stop = useCallback(() => {
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }, []);

  const start = useCallback(async () => {
    const mimeType = pickType();
    if (mimeType === undefined || !('mediaDevices' in navigator)) {
      setState({ kind: 'unsupported' });
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setState({ kind: 'denied' });
      return;
    }
    const media = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: 32_000 });
    recorder.current = media;
    const chunks: Blob[] = [];
    const startedAt = Date.now();
    media.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    media.onstop = () => {
      release();
      const seconds = Math.min(maxSeconds, Math.max(1, Math.round((Date.now() - startedAt) / 1000)));
      setState({ kind: 'done', audio: new Blob(chunks, { type: mimeType.split(';')[0] }), seconds });
    };
    media.start(1000);
    setState({ kind: 'recording', elapsed: 0 });
    timer.current = setInterval(() => {
      const elapsed = Math.floor((Date.now() - startedAt) / 1000);
      if (elapsed >= maxSeconds) {
        stop();
        return;
      }
      setState({ kind: 'recording', elapsed });
    }, 250);
  }, [maxSeconds, release, stop]);

  useEffect(
    () => () => {
      if (recorder.current?.state === 'recording') {
        recorder.current.onstop = null;
        recorder.current.stop();
      }
      release();
    },
    [release],
  );

  return { state, start, stop, reset: () => { setState({ kind: 'idle' }); } };
}
