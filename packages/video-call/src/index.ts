import type { CallSignal, IceServer, LiveCall } from '@rpm/contracts';

/** The call messages the server sends (contracts realtime.ts); the socket carries nothing else this side reads. */
type CallMessage =
  | LiveCall
  | { type: 'callJoined'; appointmentId: string }
  | { type: 'callRefused'; appointmentId: string; code: string };

const CALL_KINDS: readonly string[] = ['ready', 'leave', 'description', 'candidate'];

/**
 * A call message, or undefined for anything else (events, `resumed`). Checked by shape only: the
 * server already checked what the peer sent against contracts callSignalSchema before relaying it,
 * and the package stays free of the schema library, which the apps load with their own screens.
 */
function callMessageOf(data: unknown): CallMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Record<string, unknown>;
  if (typeof message.appointmentId !== 'string') return undefined;
  if (message.type === 'callJoined') return { type: 'callJoined', appointmentId: message.appointmentId };
  if (message.type === 'callRefused')
    return { type: 'callRefused', appointmentId: message.appointmentId, code: String(message.code) };
  const signal = message.signal as Record<string, unknown> | null | undefined;
  if (message.type !== 'call' || typeof signal?.kind !== 'string' || !CALL_KINDS.includes(signal.kind)) return undefined;
  return message as unknown as LiveCall;
}

/**
 * The one-to-one video call of an appointment (spec §2 video meeting room), the same in the
 * console (the doctor) and the patient app (the patient). Media flows peer to peer (WebRTC);
 * the offer, answer and ICE candidates go over the live channel (`/ws`, contracts realtime.ts),
 * which relays them to the other party only while the room is open.
 *
 * The exchange: each side says `ready` when it is in the room. The doctor answers a `ready` with a
 * fresh offer (a new session number); the patient answers a `ready` with its own, so whoever comes
 * second starts the call, and whoever comes back (a reload, a dropped socket, the reconnect
 * button) starts it again. Answers and candidates carry the session of the offer they belong to,
 * and those of an older session are dropped. `leave` ends the call for both.
 */

export type CallState =
  /** Opening the live channel. */
  | 'connecting'
  /** In the room, the other party not (yet) there. */
  | 'waiting'
  /** Offer and answer exchanged, media not flowing yet. */
  | 'joining'
  | 'connected'
  /** The live channel or the media path dropped: trying again. */
  | 'reconnecting'
  /** Hung up, by either side. */
  | 'ended'
  /** The server refused (not a party, the room closed, not an online appointment): `detail` is the code. */
  | 'refused';

export interface CallStats {
  framesDecoded: number;
  framesPerSecond: number | null;
  /** Round trip of the media path in milliseconds, when known. */
  roundTripMilliseconds: number | null;
  /** Whether media goes through a TURN relay. */
  relayed: boolean;
}

export interface VideoCallOptions {
  appointmentId: string;
  role: 'DOCTOR' | 'PATIENT';
  iceServers: IceServer[];
  localStream: MediaStream;
  /** Opens the live channel with the app's own credentials (a cookie, or the bearer subprotocol). */
  openSocket: () => WebSocket;
  onState: (state: CallState, detail?: string) => void;
  onRemoteStream: (stream: MediaStream | null) => void;
  /** Every 2 seconds while connected. */
  onStats?: (stats: CallStats) => void;
}

const RETRY_MILLISECONDS = [500, 1000, 2000, 5000];
const STATS_MILLISECONDS = 2000;

export class VideoCall {
  private socket: WebSocket | undefined;
  private peer: RTCPeerConnection | undefined;
  private session = 0;
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private state: CallState = 'connecting';
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private statsTimer: ReturnType<typeof setInterval> | undefined;
  private isStopped = false;

  constructor(private readonly options: VideoCallOptions) {}

  start(): void {
    this.openSocket();
    this.statsTimer = setInterval(() => void this.reportStats(), STATS_MILLISECONDS);
  }

  /** Starts the call again (the reconnect button): a new socket and a new offer. */
  reconnect(): void {
    if (this.isStopped) return;
    this.closePeer();
    this.setState('reconnecting');
    const socket = this.socket;
    this.socket = undefined;
    socket?.close(1000, 'reconnect');
    this.openSocket();
  }

  /** Hangs up: the other side is told, and the call ends for both. */
  hangUp(): void {
    if (this.isStopped) return;
    this.signal({ kind: 'leave' });
    this.stop('ended');
  }

  /** Leaves without telling (the page closes): the other side sees the media stop. */
  dispose(): void {
    if (this.isStopped) return;
    this.stop(this.state);
  }

  setMicrophoneOn(isOn: boolean): void {
    for (const track of this.options.localStream.getAudioTracks()) track.enabled = isOn;
  }

  setCameraOn(isOn: boolean): void {
    for (const track of this.options.localStream.getVideoTracks()) track.enabled = isOn;
  }

  private stop(state: CallState, detail?: string): void {
    this.isStopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.statsTimer);
    this.closePeer();
    const socket = this.socket;
    this.socket = undefined;
    // Let the `leave` go out before the socket closes.
    if (socket !== undefined)
      setTimeout(() => {
        socket.close(1000, 'left');
      }, 100);
    this.setState(state, detail);
  }

  private setState(state: CallState, detail?: string): void {
    this.state = state;
    this.options.onState(state, detail);
  }

  private openSocket(): void {
    if (this.isStopped) return;
    const socket = this.options.openSocket();
    this.socket = socket;
    socket.addEventListener('open', () => {
      // The live channel wants a resume first; this socket needs no events (after: null).
      socket.send(JSON.stringify({ type: 'resume', after: null }));
      this.signal({ kind: 'ready' });
    });
    socket.addEventListener('message', (message: MessageEvent<unknown>) => {
      if (typeof message.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      const received = callMessageOf(data);
      if (received !== undefined) void this.receive(received);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket || this.isStopped) return;
      this.socket = undefined;
      // Media may still flow peer to peer; the signalling comes back and the call restarts.
      if (this.state !== 'connected') this.setState('reconnecting');
      const delay = RETRY_MILLISECONDS[Math.min(this.attempts, RETRY_MILLISECONDS.length - 1)] ?? 5000;
      this.attempts++;
      this.retryTimer = setTimeout(() => {
        this.openSocket();
      }, delay);
    });
  }

  private signal(signal: CallSignal): void {
    if (this.socket?.readyState !== WebSocket.OPEN) return;
    this.socket.send(JSON.stringify({ type: 'call', appointmentId: this.options.appointmentId, signal }));
  }

  private async receive(message: CallMessage): Promise<void> {
    if (this.isStopped || message.appointmentId !== this.options.appointmentId) return;
    if (message.type === 'callRefused') {
      this.stop('refused', message.code);
      return;
    }
    if (message.type === 'callJoined') {
      this.attempts = 0;
      if (this.state === 'connecting' || this.state === 'reconnecting') this.setState('waiting');
      return;
    }
    const signal = message.signal;
    switch (signal.kind) {
      case 'ready':
        if (this.options.role === 'DOCTOR') await this.offer();
        else {
          this.closePeer();
          this.signal({ kind: 'ready' });
        }
        return;
      case 'leave':
        this.stop('ended');
        return;
      case 'description':
        await this.describe(signal.session, signal.description);
        return;
      case 'candidate':
        await this.addCandidate(signal.session, signal.candidate);
        return;
    }
  }

  /** The doctor's side: a new connection and an offer for it. */
  private async offer(): Promise<void> {
    this.closePeer();
    this.session++;
    const session = this.session;
    const peer = this.openPeer();
    const offer = await peer.createOffer();
    if (peer !== this.peer) return;
    await peer.setLocalDescription(offer);
    this.setState('joining');
    this.signal({ kind: 'description', session, description: { type: 'offer', sdp: offer.sdp ?? '' } });
  }

  private async describe(session: number, description: { type: 'offer' | 'answer'; sdp: string }): Promise<void> {
    if (description.type === 'offer') {
      if (this.options.role !== 'PATIENT') return;
      // Every offer is a new call: a new connection in its session.
      this.closePeer();
      this.session = session;
      const peer = this.openPeer();
      await peer.setRemoteDescription(description);
      await this.flushCandidates(peer);
      const answer = await peer.createAnswer();
      if (peer !== this.peer) return;
      await peer.setLocalDescription(answer);
      this.setState('joining');
      this.signal({ kind: 'description', session, description: { type: 'answer', sdp: answer.sdp ?? '' } });
      return;
    }
    const peer = this.peer;
    if (this.options.role !== 'DOCTOR' || peer === undefined || session !== this.session) return;
    if (peer.signalingState !== 'have-local-offer') return;
    await peer.setRemoteDescription(description);
    await this.flushCandidates(peer);
  }

  private async addCandidate(session: number, candidate: RTCIceCandidateInit | null): Promise<void> {
    if (session !== this.session || candidate === null) return;
    const peer = this.peer;
    if (peer === undefined || peer.remoteDescription === null) {
      this.pendingCandidates.push(candidate);
      return;
    }
    await peer.addIceCandidate(candidate).catch(() => undefined);
  }

  private async flushCandidates(peer: RTCPeerConnection): Promise<void> {
    const pending = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const candidate of pending) await peer.addIceCandidate(candidate).catch(() => undefined);
  }

  private openPeer(): RTCPeerConnection {
    const peer = new RTCPeerConnection({ iceServers: this.options.iceServers });
    this.peer = peer;
    this.pendingCandidates = [];
    const session = this.session;
    for (const track of this.options.localStream.getTracks()) peer.addTrack(track, this.options.localStream);
    peer.addEventListener('icecandidate', (event) => {
      if (peer !== this.peer) return;
      const json = event.candidate?.toJSON();
      this.signal({
        kind: 'candidate',
        session,
        candidate: json === undefined ? null : { ...json, candidate: json.candidate ?? '' },
      });
    });
    peer.addEventListener('track', (event) => {
      if (peer !== this.peer) return;
      this.options.onRemoteStream(event.streams[0] ?? new MediaStream([event.track]));
    });
    peer.addEventListener('connectionstatechange', () => {
      if (peer !== this.peer || this.isStopped) return;
      if (peer.connectionState === 'connected') this.setState('connected');
      if (peer.connectionState === 'disconnected') this.setState('reconnecting');
      // The media path is gone: the doctor offers again (the patient asks it to).
      if (peer.connectionState === 'failed') {
        this.setState('reconnecting');
        if (this.options.role === 'DOCTOR') void this.offer();
        else this.signal({ kind: 'ready' });
      }
    });
    return peer;
  }

  private closePeer(): void {
    const peer = this.peer;
    this.peer = undefined;
    this.pendingCandidates = [];
    if (peer !== undefined) {
      peer.close();
      this.options.onRemoteStream(null);
    }
  }

  private async reportStats(): Promise<void> {
    const peer = this.peer;
    if (peer === undefined || this.options.onStats === undefined || this.state !== 'connected') return;
    const report = await peer.getStats();
    const stats: CallStats = { framesDecoded: 0, framesPerSecond: null, roundTripMilliseconds: null, relayed: false };
    const candidates = new Map<string, string>();
    report.forEach((entry: { type: string; id: string; [key: string]: unknown }) => {
      if (entry.type === 'local-candidate') candidates.set(entry.id, typeof entry.candidateType === 'string' ? entry.candidateType : '');
    });
    report.forEach((entry: { type: string; [key: string]: unknown }) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'video') {
        stats.framesDecoded += Number(entry.framesDecoded ?? 0);
        if (typeof entry.framesPerSecond === 'number') stats.framesPerSecond = entry.framesPerSecond;
      }
      if (entry.type === 'candidate-pair' && entry.nominated === true && entry.state === 'succeeded') {
        if (typeof entry.currentRoundTripTime === 'number')
          stats.roundTripMilliseconds = Math.round(entry.currentRoundTripTime * 1000);
        stats.relayed = candidates.get(String(entry.localCandidateId)) === 'relay';
      }
    });
    this.options.onStats(stats);
  }
}
