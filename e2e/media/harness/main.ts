// Drives the real web wrapper (apps/web/src/shared/livekit) from Playwright: every call below goes through
// connectMediaRoom and its methods; only `publishCameraIgnoringClientCheck` and `publishDataIgnoringGrant`
// reach into LiveKit, to prove the media server itself refuses what the token does not grant.
import { createLocalVideoTrack, RoomEvent, Track } from 'livekit-client';
import { MediaPublishError } from '../../../apps/web/src/shared/livekit/device-errors.ts';
import {
  connectMediaRoom,
  type MediaConnectionState,
  type MediaRoom,
} from '../../../apps/web/src/shared/livekit/media-room.ts';

interface VideoView {
  element: HTMLVideoElement;
  /** performance.now() of the subscription (the track reached this page). */
  subscribedAt: number;
  /** performance.now() of the first frame the browser decoded and presented. */
  firstFrameAt: number | null;
}

let room: MediaRoom | null = null;
let connectStartedAt = 0;
/** performance.now() when connect() resolved (signalling joined, first PeerConnection up). */
let connectedAt: number | null = null;
const video: VideoView[] = [];
const audio: HTMLMediaElement[] = [];
/** Every data packet this page received from the room, whoever sent it. */
const data: { topic: string | null; from: string | null; text: string }[] = [];
const states: MediaConnectionState['status'][] = [];

interface RtpCounters {
  packetsReceived: number;
  bytesReceived: number;
  framesReceived: number;
  framesDecoded: number;
}

/** The inbound-rtp counters of a remote track's receiver, summed over its streams (simulcast layers). */
async function inboundRtp(
  track: { receiver?: RTCRtpReceiver } | undefined,
  kind: 'audio' | 'video',
): Promise<RtpCounters> {
  const counters: RtpCounters = { packetsReceived: 0, bytesReceived: 0, framesReceived: 0, framesDecoded: 0 };
  const report = await track?.receiver?.getStats();
  report?.forEach((entry: Partial<RtpCounters> & { type: string; kind?: string }) => {
    if (entry.type !== 'inbound-rtp' || entry.kind !== kind) return;
    counters.packetsReceived += entry.packetsReceived ?? 0;
    counters.bytesReceived += entry.bytesReceived ?? 0;
    counters.framesReceived += entry.framesReceived ?? 0;
    counters.framesDecoded += entry.framesDecoded ?? 0;
  });
  return counters;
}

function current(): MediaRoom {
  if (!room) throw new Error('not connected');
  return room;
}

const harness = {
  async connect(serverUrl: string, accessToken: string) {
    connectStartedAt = performance.now();
    connectedAt = null;
    room = await connectMediaRoom({
      serverUrl,
      accessToken,
      // LiveKit's 15 s for the peer connection failed the calls e2e's outside subscriber at load 40.
      timeoutMs: 60_000,
      listeners: {
        state: (s) => states.push(s.status),
        trackSubscribed: (track) => {
          if (track.kind === 'video') {
            const element = document.createElement('video');
            element.muted = true;
            element.playsInline = true;
            element.autoplay = true;
            const view: VideoView = { element, subscribedAt: performance.now(), firstFrameAt: null };
            element.requestVideoFrameCallback((now) => {
              view.firstFrameAt = now;
            });
            track.attach(element);
            document.getElementById('remote')?.append(element);
            video.push(view);
          } else {
            audio.push(track.attach());
          }
        },
      },
    });
    connectedAt = performance.now();
    room.livekitRoom.on(RoomEvent.DataReceived, (payload, participant, _kind, topic, _enc, identity) => {
      data.push({
        topic: topic ?? null,
        from: participant?.identity ?? identity ?? null,
        text: new TextDecoder().decode(payload),
      });
    });
    return { roomName: room.roomName, state: room.state.status };
  },

  publishCamera: () => current().publishCamera(),
  publishMicrophone: () => current().publishMicrophone(),

  async tryPublishCamera() {
    try {
      await current().publishCamera();
      return { published: true as const };
    } catch (error) {
      if (error instanceof MediaPublishError)
        return { published: false as const, failure: error.failure, message: error.message };
      return { published: false as const, failure: 'unexpected', message: String(error) };
    }
  },

  /** What a modified client would do: skip livekit-client's own permission check and ask the server. */
  async publishCameraIgnoringClientCheck(timeoutMs: number) {
    const participant = current().livekitRoom.localParticipant;
    Object.assign(participant, { hasPermissionsToPublish: () => true });
    const track = await createLocalVideoTrack();
    const attempt = participant.publishTrack(track, { source: Track.Source.Camera }).then(
      () => 'published',
      (error: unknown) => `rejected: ${error instanceof Error ? error.message : String(error)}`,
    );
    const timeout = new Promise<string>((resolve) =>
      setTimeout(() => resolve('no answer from the server'), timeoutMs),
    );
    const outcome = await Promise.race([attempt, timeout]);
    track.stop();
    return outcome;
  },

  videoStats() {
    return video.map(({ element, subscribedAt, firstFrameAt }) => ({
      width: element.videoWidth,
      height: element.videoHeight,
      framesDecoded: element.getVideoPlaybackQuality().totalVideoFrames,
      /** Each from the start of connect(). */
      connectedMs: connectedAt === null ? null : connectedAt - connectStartedAt,
      subscribedMs: subscribedAt - connectStartedAt,
      firstFrameMs: firstFrameAt === null ? null : firstFrameAt - connectStartedAt,
    }));
  },

  /** inbound-rtp counters of every remote audio track, straight from the RTCRtpReceiver. */
  async audioStats() {
    const tracks: Array<{ packetsReceived: number; bytesReceived: number; muted: boolean }> = [];
    for (const participant of current().livekitRoom.remoteParticipants.values()) {
      for (const publication of participant.audioTrackPublications.values()) {
        const { packetsReceived, bytesReceived } = await inboundRtp(publication.track, 'audio');
        tracks.push({ packetsReceived, bytesReceived, muted: publication.isMuted });
      }
    }
    return { attached: audio.length, tracks };
  },

  /**
   * inbound-rtp counters of every remote video track: what reached the decoder (`framesReceived`, whole frames
   * put together from the packets) beside what it made pictures of (`framesDecoded`). Unlike the element's
   * count in `videoStats`, a frame counts as received whether or not anything can decode or show it.
   */
  async videoReceiverStats() {
    const tracks: RtpCounters[] = [];
    for (const participant of current().livekitRoom.remoteParticipants.values())
      for (const publication of participant.videoTrackPublications.values())
        tracks.push(await inboundRtp(publication.track, 'video'));
    return tracks;
  },

  /** A packet sent straight through LiveKit, as a client that ignores its grant would. */
  async publishDataIgnoringGrant(value: unknown, topic: string) {
    const bytes = new TextEncoder().encode(JSON.stringify(value));
    try {
      await current().livekitRoom.localParticipant.publishData(bytes, { reliable: true, topic });
      return 'sent';
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  },
  dataReceived: () => [...data],
  states: () => [...states],
  canPlaybackAudio: () => current().canPlaybackAudio,

  async disconnect() {
    await room?.disconnect();
    room = null;
    video.length = 0;
    audio.length = 0;
    document.getElementById('remote')?.replaceChildren();
  },
};

declare global {
  interface Window {
    harness: typeof harness;
  }
}
window.harness = harness;
