import {
  createLocalAudioTrack,
  createLocalVideoTrack,
  type LocalTrack,
  type Participant,
  PublishTrackError,
  type RemoteParticipant,
  type RemoteTrack,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  Track,
  VideoPresets,
} from 'livekit-client';
import { ru } from '../i18n/ru.ts';
import {
  cameraErrorMessage,
  deviceFailure,
  MediaPublishError,
  microphoneErrorMessage,
} from './device-errors.ts';
import { mediaServerUrl } from './server-url.ts';

/** Connection to a media room, as a union keyed by status. */
export type MediaConnectionState =
  | { status: 'connecting' }
  | { status: 'connected' }
  | { status: 'reconnecting' }
  /** 'left': we called disconnect(); 'lost': the connection dropped and could not be restored. */
  | { status: 'disconnected'; reason: 'left' | 'lost' };

export interface MediaPeer {
  identity: string;
  name: string;
}

export type MediaSource = 'camera' | 'microphone' | 'screen_share' | 'screen_share_audio' | 'unknown';

/** A remote track we receive, without LiveKit's classes leaking into the UI. */
export interface RemoteMediaTrack {
  sid: string;
  kind: 'video' | 'audio';
  source: MediaSource;
  from: MediaPeer;
  /** Plays the track in the given element (or a new one) and returns it. */
  attach(element?: HTMLMediaElement): HTMLMediaElement;
  detach(): void;
}

export interface MediaRoomEvents {
  state: (state: MediaConnectionState) => void;
  trackSubscribed: (track: RemoteMediaTrack) => void;
  trackUnsubscribed: (track: RemoteMediaTrack) => void;
  peerJoined: (peer: MediaPeer) => void;
  peerLeft: (peer: MediaPeer) => void;
  /** False when the browser blocked autoplay: prompt with ru.mediaPlane.audioBlocked and call startAudio(). */
  audioPlayback: (canPlaybackAudio: boolean) => void;
}

export interface MediaRoom {
  readonly roomName: string;
  readonly state: MediaConnectionState;
  readonly canPlaybackAudio: boolean;
  readonly remoteTracks: readonly RemoteMediaTrack[];
  on<E extends keyof MediaRoomEvents>(event: E, listener: MediaRoomEvents[E]): () => void;
  /** Publishes the camera at 720p; throws MediaPublishError with the spec §8 text. */
  publishCamera(options?: { deviceId?: string }): Promise<void>;
  publishMicrophone(options?: { deviceId?: string }): Promise<void>;
  setMicrophoneEnabled(enabled: boolean): Promise<void>;
  /** Must run inside a user gesture (the "Включить звук" click). */
  startAudio(): Promise<{ ok: true } | { ok: false; message: string }>;
  disconnect(): Promise<void>;
  /** The underlying LiveKit room, for features this wrapper does not cover yet. */
  readonly livekitRoom: Room;
}

export interface ConnectOptions {
  serverUrl: string;
  accessToken: string;
  /** Called once per event before connect() resolves, so no early track or message is missed. */
  listeners?: Partial<{ [E in keyof MediaRoomEvents]: MediaRoomEvents[E] }>;
  /**
   * How long the signalling socket and the first PeerConnection may take each (LiveKit's default is 15 s).
   * A starved machine can need longer; a reconnect loop that always gives up at the same bound never wins.
   */
  timeoutMs?: number;
}

const peerOf = (p: Participant): MediaPeer => ({ identity: p.identity, name: p.name || p.identity });

function sourceOf(source: Track.Source): MediaSource {
  switch (source) {
    case Track.Source.Camera:
      return 'camera';
    case Track.Source.Microphone:
      return 'microphone';
    case Track.Source.ScreenShare:
      return 'screen_share';
    case Track.Source.ScreenShareAudio:
      return 'screen_share_audio';
    default:
      return 'unknown';
  }
}

function toRemoteTrack(track: RemoteTrack, participant: RemoteParticipant): RemoteMediaTrack {
  return {
    sid: track.sid ?? '',
    kind: track.kind === Track.Kind.Video ? 'video' : 'audio',
    source: sourceOf(track.source),
    from: peerOf(participant),
    attach: (element) => (element ? track.attach(element) : track.attach()),
    detach: () => {
      track.detach();
    },
  };
}

/** Connects to a LiveKit room with a token from the server (`MediaTokenResponse`). */
export async function connectMediaRoom({
  serverUrl,
  accessToken,
  listeners = {},
  timeoutMs,
}: ConnectOptions): Promise<MediaRoom> {
  const room = new Room({
    adaptiveStream: true,
    dynacast: true,
    videoCaptureDefaults: { resolution: VideoPresets.h720.resolution },
    publishDefaults: { videoEncoding: VideoPresets.h720.encoding, simulcast: true },
  });
  // Every event carries exactly one value; listeners are kept untyped here and typed at `on`/`emit`.
  type Listener = (value: unknown) => void;
  const handlers = new Map<keyof MediaRoomEvents, Set<Listener>>();
  const emit = <E extends keyof MediaRoomEvents>(event: E, value: Parameters<MediaRoomEvents[E]>[0]) => {
    for (const handler of handlers.get(event) ?? []) handler(value);
  };
  const on = <E extends keyof MediaRoomEvents>(event: E, listener: MediaRoomEvents[E]) => {
    const set = handlers.get(event) ?? new Set<Listener>();
    set.add(listener as Listener);
    handlers.set(event, set);
    return () => {
      set.delete(listener as Listener);
    };
  };
  for (const [event, listener] of Object.entries(listeners)) {
    if (listener) on(event as keyof MediaRoomEvents, listener as MediaRoomEvents[keyof MediaRoomEvents]);
  }

  let state: MediaConnectionState = { status: 'connecting' };
  let leaving = false;
  const setState = (next: MediaConnectionState) => {
    state = next;
    emit('state', next);
  };
  const tracks = new Map<string, RemoteMediaTrack>();

  room
    .on(RoomEvent.Reconnecting, () => setState({ status: 'reconnecting' }))
    .on(RoomEvent.Reconnected, () => setState({ status: 'connected' }))
    .on(RoomEvent.Disconnected, () => setState({ status: 'disconnected', reason: leaving ? 'left' : 'lost' }))
    .on(RoomEvent.ParticipantConnected, (p) => emit('peerJoined', peerOf(p)))
    .on(RoomEvent.ParticipantDisconnected, (p) => emit('peerLeft', peerOf(p)))
    .on(
      RoomEvent.TrackSubscribed,
      (track: RemoteTrack, _pub: RemoteTrackPublication, p: RemoteParticipant) => {
        const remote = toRemoteTrack(track, p);
        tracks.set(remote.sid, remote);
        emit('trackSubscribed', remote);
      },
    )
    .on(
      RoomEvent.TrackUnsubscribed,
      (track: RemoteTrack, _pub: RemoteTrackPublication, p: RemoteParticipant) => {
        const remote = tracks.get(track.sid ?? '') ?? toRemoteTrack(track, p);
        tracks.delete(remote.sid);
        emit('trackUnsubscribed', remote);
      },
    )
    .on(RoomEvent.AudioPlaybackStatusChanged, () => emit('audioPlayback', room.canPlaybackAudio));

  try {
    await room.connect(
      mediaServerUrl(serverUrl),
      accessToken,
      timeoutMs ? { peerConnectionTimeout: timeoutMs, websocketTimeout: timeoutMs } : undefined,
    );
  } catch (error) {
    await room.disconnect();
    throw error;
  }
  setState({ status: 'connected' });

  async function publish(
    device: 'camera' | 'microphone',
    capture: () => Promise<LocalTrack>,
    source: Track.Source,
  ): Promise<void> {
    const permissions = room.localParticipant.permissions;
    const allowedSources =
      permissions?.canPublishSources.map((s) => sourceOf(Track.sourceFromProto(s))) ?? [];
    if (!permissions?.canPublish || (allowedSources.length > 0 && !allowedSources.includes(device))) {
      throw new MediaPublishError(device, 'forbidden', ru.mediaPlane.publishForbidden);
    }
    let track: LocalTrack;
    try {
      track = await capture();
    } catch (error) {
      const message = device === 'camera' ? cameraErrorMessage(error) : microphoneErrorMessage(error);
      throw new MediaPublishError(device, deviceFailure(error), message, error);
    }
    try {
      await room.localParticipant.publishTrack(track, { source });
    } catch (error) {
      track.stop();
      if (error instanceof PublishTrackError && error.status === 403) {
        throw new MediaPublishError(device, 'forbidden', ru.mediaPlane.publishForbidden, error);
      }
      throw error;
    }
  }

  return {
    get roomName() {
      return room.name;
    },
    get state() {
      return state;
    },
    get canPlaybackAudio() {
      return room.canPlaybackAudio;
    },
    get remoteTracks() {
      return [...tracks.values()];
    },
    on,
    publishCamera: (options = {}) =>
      publish(
        'camera',
        () => createLocalVideoTrack({ resolution: VideoPresets.h720.resolution, deviceId: options.deviceId }),
        Track.Source.Camera,
      ),
    publishMicrophone: (options = {}) =>
      publish(
        'microphone',
        () =>
          createLocalAudioTrack({
            deviceId: options.deviceId,
            echoCancellation: true,
            noiseSuppression: true,
          }),
        Track.Source.Microphone,
      ),
    async setMicrophoneEnabled(enabled) {
      const publication = room.localParticipant.getTrackPublication(Track.Source.Microphone);
      if (!publication?.track) return;
      if (enabled) await publication.unmute();
      else await publication.mute();
    },
    async startAudio() {
      try {
        await room.startAudio();
        return room.canPlaybackAudio ? { ok: true } : { ok: false, message: ru.mediaPlane.enableAudioFailed };
      } catch {
        return { ok: false, message: ru.mediaPlane.enableAudioFailed };
      }
    },
    async disconnect() {
      leaving = true;
      await room.disconnect();
    },
    livekitRoom: room,
  };
}
