import {
  ExternalE2EEKeyProvider,
  type LocalTrack,
  type LocalVideoTrack,
  type Participant,
  type RemoteTrack,
  Room,
  RoomEvent,
  Track,
  type TrackPublication,
} from 'livekit-client';
import E2EEWorker from 'livekit-client/e2ee-worker?worker';
import { mediaServerUrl } from '../../../shared/livekit/server-url.ts';
import { callMark } from '../lib/marks.ts';
import type { CallStats } from '../store/call-store.ts';
import { type CapturedAhead, captureAhead } from './capture-ahead.ts';

/**
 * The call's media room (loaded lazily: livekit-client stays out of the first bundle). With a key, every
 * frame is encrypted in the browser (LiveKit's E2EE worker with our ECDH-derived key), so the media
 * server forwards frames it cannot decode.
 */

export interface CallMediaEvents {
  /** Remote or local tracks changed: re-attach. */
  tracks(): void;
  peerMuted(source: 'microphone' | 'camera', muted: boolean): void;
  /** The room dropped for good (not a reconnect LiveKit handles itself). */
  lost(): void;
}

export interface CallMedia {
  attach(elements: { remoteVideo?: HTMLVideoElement | null; localVideo?: HTMLVideoElement | null }): void;
  attachAudio(element: HTMLAudioElement): void;
  setMicrophone(enabled: boolean): Promise<void>;
  setCamera(enabled: boolean): Promise<void>;
  /** Films with the other camera (front ↔ back) on the same published track. */
  setFacing(facing: 'user' | 'environment'): Promise<void>;
  stats(): Promise<CallStats>;
  /** Settles when this side's microphone (and camera) are published. */
  published: Promise<void>;
  disconnect(): Promise<void>;
}

const NEGOTIATION_TIMEOUT_MS = 45_000;

/**
 * Marks `first-frame` when the peer's first video frame is decoded (the receiver's own counter: the
 * <video> may still be hidden then, so no paint callback would fire). Polls briefly, for one track. On the
 * way it marks `video-packets` (the first RTP packet in) and `video-pli` (this receiver asked for a
 * keyframe): what the frame waited for after the subscription — the media, or a decodable keyframe.
 */
function markFirstFrame(track: RemoteTrack) {
  const started = performance.now();
  const once = (step: string) => {
    if (!performance.getEntriesByName(`kadr-call:${step}`).length) callMark(step);
  };
  const timer = window.setInterval(() => {
    if (performance.now() - started > 120_000) return window.clearInterval(timer);
    void track.receiver?.getStats().then((report) => {
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type !== 'inbound-rtp') return;
        if (Number(entry.packetsReceived ?? 0) > 0) once('video-packets');
        if (Number(entry.pliCount ?? 0) + Number(entry.firCount ?? 0) > 0) once('video-pli');
        if (Number(entry.framesDecoded ?? 0) > 0 && timer) {
          window.clearInterval(timer);
          once('first-frame');
        }
      });
    });
  }, 50);
}

type Encryption = { keyProvider: ExternalE2EEKeyProvider; worker: Worker } | null;

function makeRoom(encryption: Encryption): Room {
  return new Room({
    // The peer's video is wanted at once and in full: no waiting for the element's size (adaptive stream)
    // or for the server's "someone subscribes" before encoding (dynacast) on the first frame's path.
    adaptiveStream: false,
    dynacast: false,
    // One receiver: simulcast would encode (and encrypt) three layers of which the peer only ever gets one.
    publishDefaults: { simulcast: false },
    ...(encryption ? { encryption } : {}),
  });
}

const makeEncryption = (): NonNullable<Encryption> => ({
  keyProvider: new ExternalE2EEKeyProvider(),
  worker: new E2EEWorker(),
});

/**
 * What a call needs before its token arrives, started early (the caller's press, the callee's accept):
 * the microphone and camera are captured and the room with its E2EE worker is made meanwhile, so after
 * the token only the connection and the publication remain. `connectCallMedia` takes it over.
 */
export interface PreparedCallMedia {
  /** The camera turned off (its capture stops) or on again before the call connected. */
  setCamera(enabled: boolean): void;
  /** Stops the captured devices and the worker (a call that ended before connecting). Idempotent. */
  release(): void;
}

interface Preparation extends PreparedCallMedia {
  room: Room;
  encryption: Encryption;
  microphone: CapturedAhead<LocalTrack>;
  camera: CapturedAhead<LocalTrack> | null;
}

/** The media server's address, remembered from the last token: the next call warms its connection early. */
let knownServerUrl: string | null = null;

export function prepareCallMedia(options: { video: boolean; encrypted: boolean }): PreparedCallMedia {
  const encryption = options.encrypted ? makeEncryption() : null;
  const room = makeRoom(encryption);
  if (knownServerUrl) void room.prepareConnection(mediaServerUrl(knownServerUrl));
  const capture = (kind: 'audio' | 'video') =>
    captureAhead(async () => {
      const [track] = await room.localParticipant.createTracks({ [kind]: true });
      if (!track) throw new Error(`no ${kind} track`);
      return track;
    });
  const preparation: Preparation = {
    room,
    encryption,
    microphone: capture('audio'),
    camera: options.video ? capture('video') : null,
    setCamera(enabled) {
      if (!enabled) {
        preparation.camera?.stop();
        preparation.camera = null;
      } else preparation.camera ??= capture('video');
    },
    release() {
      preparation.microphone.stop();
      preparation.camera?.stop();
      encryption?.worker.terminate();
    },
  };
  return preparation;
}

/** What the answered call brings: its key (null: a plain call) and whether the camera goes out. */
export interface CallAnswer {
  key: ArrayBuffer | null;
  video: boolean;
}

/**
 * Connects the call's room; nothing is published before `answer` settles. The callee's answer is known
 * when it connects; the caller connects while its call rings (token, signalling and PeerConnection out of
 * the answer's path) and learns the key — derived from the callee's public key — only with the answer.
 * `encrypted`: whether the room can encrypt at all (a room that can still sends plain media when the
 * answer has no key).
 */
export async function connectCallMedia(options: {
  serverUrl: string;
  token: string;
  encrypted: boolean;
  answer: Promise<CallAnswer>;
  /** Devices and room made ahead (`prepareCallMedia`); without it everything starts here. */
  prepared?: PreparedCallMedia | null;
  on: CallMediaEvents;
}): Promise<CallMedia> {
  knownServerUrl = options.serverUrl;
  const ahead = (options.prepared as Preparation | null | undefined) ?? null;
  // The prepared room is encrypted when this browser can be; a peer that cannot means a plain room.
  const reusable = ahead && Boolean(ahead.encryption) === options.encrypted;
  const encryption = reusable ? ahead.encryption : options.encrypted ? makeEncryption() : null;
  const room = reusable ? ahead.room : makeRoom(encryption);
  if (ahead && !reusable) ahead.encryption?.worker.terminate();
  // The devices captured ahead stay the preparation's (its owner may still release them, or turn the
  // camera off) until the answer takes them.
  let captured: { microphone: Promise<LocalTrack | null>; camera: Promise<LocalTrack | null> } | null = null;
  const releaseCaptured = () => {
    for (const track of Object.values(captured ?? {})) void track.then((t) => t?.stop());
  };
  let left = false;
  let answered = false;
  const wanted = { microphone: true, camera: false };
  // The key is in the worker and encryption on before anything is published: a track published
  // before would go out in the clear (and be published again once encryption is on).
  const keyed = options.answer.then(async ({ key, video }) => {
    answered = true;
    wanted.camera = video;
    if (ahead && !video) ahead.setCamera(false);
    captured = {
      microphone: ahead?.microphone.take() ?? Promise.resolve(null),
      camera: ahead?.camera?.take() ?? Promise.resolve(null),
    };
    if (encryption && key) {
      await encryption.keyProvider.setKey(key);
      await room.setE2EEEnabled(true);
    }
    return captured;
  });
  // A key that cannot be applied ends the call rather than let anything go out in the clear.
  keyed.catch(() => {
    if (left) return;
    left = true;
    releaseCaptured();
    void room.disconnect().catch(() => undefined);
    options.on.lost();
  });
  const remoteTrack = (kind: Track.Kind): RemoteTrack | undefined => {
    for (const participant of room.remoteParticipants.values()) {
      for (const publication of participant.trackPublications.values()) {
        if (publication.track && publication.kind === kind) return publication.track as RemoteTrack;
      }
    }
    return undefined;
  };
  const localVideo = (): LocalTrack | undefined =>
    room.localParticipant.getTrackPublication(Track.Source.Camera)?.track as LocalTrack | undefined;
  const muted = (publication: TrackPublication, participant: Participant, value: boolean) => {
    if (participant.isLocal) return;
    if (publication.source === Track.Source.Microphone) options.on.peerMuted('microphone', value);
    if (publication.source === Track.Source.Camera) options.on.peerMuted('camera', value);
  };

  // livekit-client 2.23 passes `peerConnectionTimeout` to the engine but its transport manager keeps its own
  // 15 s for answering a publisher offer (`negotiate`): widen that one too, where it exists — from the
  // signalling answer on, since the devices captured ahead are published from then.
  const widenNegotiationTimeout = () => {
    const transports = (room.engine as unknown as { pcManager?: { peerConnectionTimeout?: number } })
      .pcManager;
    if (transports && typeof transports.peerConnectionTimeout === 'number')
      transports.peerConnectionTimeout = NEGOTIATION_TIMEOUT_MS;
  };
  room
    .on(RoomEvent.SignalConnected, () => {
      widenNegotiationTimeout();
      callMark('signal-connected');
    })
    .on(RoomEvent.TrackSubscribed, (track) => {
      callMark(`subscribed-${track.kind}`);
      if (track.kind === Track.Kind.Video) markFirstFrame(track);
      options.on.tracks();
    })
    .on(RoomEvent.TrackUnsubscribed, () => options.on.tracks())
    .on(RoomEvent.LocalTrackPublished, (publication) => {
      callMark(`published-${publication.kind}`);
      options.on.tracks();
    })
    .on(RoomEvent.TrackMuted, (pub, participant) => muted(pub, participant, true))
    .on(RoomEvent.TrackUnmuted, (pub, participant) => muted(pub, participant, false))
    .on(RoomEvent.Disconnected, () => {
      if (!left) options.on.lost();
    });

  // The devices captured ahead are published as soon as the answer is in and the signalling connection is
  // up (livekit-client defers a publication until then), so their negotiation overlaps the rest of the
  // connection. A device whose early capture failed is captured here the usual way, which reports the
  // device's error.
  const publishCaptured = (source: 'microphone' | 'camera', track: LocalTrack | null) => {
    if (left || !wanted[source]) {
      track?.stop();
      return Promise.resolve();
    }
    if (track) {
      const lkSource = source === 'camera' ? Track.Source.Camera : Track.Source.Microphone;
      return room.localParticipant.publishTrack(track, { source: lkSource }).then(() => undefined);
    }
    return source === 'camera'
      ? room.localParticipant.setCameraEnabled(true).then(() => undefined)
      : room.localParticipant.setMicrophoneEnabled(true).then(() => undefined);
  };
  const first = keyed
    .then((devices) =>
      Promise.all([
        devices.microphone.then((track) => publishCaptured('microphone', track)),
        devices.camera.then((track) =>
          track || wanted.camera ? publishCaptured('camera', track) : undefined,
        ),
      ]),
    )
    .then(() => undefined);
  // Settled later (after the connection's own outcome is known): no unhandled rejection meanwhile.
  first.catch(() => undefined);

  try {
    // LiveKit's 15 s default for a negotiation to answer assumes a quick device: past it the client restarts
    // the whole connection and drops what it was publishing (a call without video or sound). A slow phone or
    // a loaded machine answers later; waiting is better than starting over.
    await room.connect(mediaServerUrl(options.serverUrl), options.token, {
      peerConnectionTimeout: NEGOTIATION_TIMEOUT_MS,
    });
  } catch (error) {
    left = true;
    releaseCaptured();
    await room.disconnect().catch(() => undefined);
    encryption?.worker.terminate();
    throw error;
  }
  widenNegotiationTimeout();
  callMark('pc-connected');
  // Publishing again (the wanted devices, the usual way): after a failed first publication, or after a full
  // reconnection dropped what was published.
  const publish = () =>
    Promise.all([
      room.localParticipant.setMicrophoneEnabled(wanted.microphone),
      room.localParticipant.setCameraEnabled(wanted.camera),
    ]).then(() => undefined);
  const published = first.catch(async (error: unknown) => {
    if (left) throw error;
    await keyed;
    await publish();
  });
  room.on(RoomEvent.Reconnected, () => {
    if (!left && answered) void publish().catch(() => undefined);
  });

  let previous: { at: number; bytes: number } | null = null;

  return {
    published,
    attach({ remoteVideo, localVideo: local }) {
      const video = remoteTrack(Track.Kind.Video);
      if (remoteVideo && video) video.attach(remoteVideo);
      const own = localVideo();
      if (local && own) own.attach(local);
    },
    attachAudio(element) {
      remoteTrack(Track.Kind.Audio)?.attach(element);
    },
    setMicrophone: async (enabled) => {
      wanted.microphone = enabled;
      await room.localParticipant.setMicrophoneEnabled(enabled);
    },
    setCamera: async (enabled) => {
      wanted.camera = enabled;
      await room.localParticipant.setCameraEnabled(enabled);
      options.on.tracks();
    },
    setFacing: async (facing) => {
      const own = localVideo() as (LocalTrack & Partial<LocalVideoTrack>) | undefined;
      // The same track restarts on the other device: the peer keeps receiving, no renegotiation.
      await own?.restartTrack?.({ facingMode: facing });
      options.on.tracks();
    },
    async stats() {
      let rtt: number | null = null;
      let lost = 0;
      let received = 0;
      let bytes = 0;
      let frames = 0;
      let energy = 0;
      for (const track of [remoteTrack(Track.Kind.Video), remoteTrack(Track.Kind.Audio)]) {
        const report = await track?.receiver?.getStats();
        report?.forEach((entry: Record<string, unknown>) => {
          if (entry.type === 'inbound-rtp') {
            lost += Number(entry.packetsLost ?? 0);
            received += Number(entry.packetsReceived ?? 0);
            bytes += Number(entry.bytesReceived ?? 0);
            if (entry.kind === 'video') frames += Number(entry.framesDecoded ?? 0);
            if (entry.kind === 'audio') energy += Number(entry.totalAudioEnergy ?? 0);
          }
          if (
            entry.type === 'candidate-pair' &&
            entry.nominated &&
            typeof entry.currentRoundTripTime === 'number'
          )
            rtt = Math.round(entry.currentRoundTripTime * 1000);
        });
      }
      const now = performance.now();
      const bitrate =
        previous && now > previous.at
          ? Math.round(((bytes - previous.bytes) * 8) / (now - previous.at))
          : null;
      previous = { at: now, bytes };
      const lossPercent = received + lost > 0 ? Math.round((lost / (received + lost)) * 1000) / 10 : null;
      const r = rtt ?? 0;
      const l = lossPercent ?? 0;
      const quality = l < 2 && r < 150 ? 'good' : l < 8 && r < 400 ? 'fair' : 'poor';
      return {
        rttMs: rtt,
        lossPercent,
        bitrateKbps: bitrate,
        quality,
        videoFramesDecoded: frames,
        audioEnergy: energy,
      };
    },
    async disconnect() {
      left = true;
      await room.disconnect();
      // A device whose capture was still starting was never published: stopped here.
      releaseCaptured();
      encryption?.worker.terminate();
    },
  };
}
