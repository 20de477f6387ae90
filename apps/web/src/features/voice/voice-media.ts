import {
  type Participant,
  type RemoteTrack,
  Room,
  RoomEvent,
  Track,
  type TrackPublication,
} from 'livekit-client';
import { mediaServerUrl } from '../../shared/livekit/server-url.ts';

/**
 * A group voice chat's media room (loaded lazily: livekit-client stays out of the first bundle).
 * Audio only: this device publishes its microphone and plays every other participant's.
 */
export interface VoiceMediaEvents {
  /** Identities of those speaking now (LiveKit's active speakers). */
  speakers(identities: string[]): void;
  /** Someone's microphone was muted or unmuted. */
  muted(identity: string, muted: boolean): void;
  /** The room dropped for good. */
  lost(reason: string): void;
}

export interface VoiceMedia {
  setMicrophone(enabled: boolean): Promise<void>;
  /** Received audio per remote identity: bytes so far (grows while audio arrives). */
  inbound(): Promise<Record<string, number>>;
  disconnect(): Promise<void>;
}

const NEGOTIATION_TIMEOUT_MS = 45_000;

export async function connectVoiceMedia(options: {
  serverUrl: string;
  token: string;
  on: VoiceMediaEvents;
}): Promise<VoiceMedia> {
  const room = new Room({ adaptiveStream: false, dynacast: false });
  const elements = new Map<string, HTMLAudioElement>();
  let left = false;

  const play = (track: RemoteTrack, participant: Participant) => {
    if (track.kind !== Track.Kind.Audio) return;
    const element = track.attach() as HTMLAudioElement;
    element.dataset.voiceIdentity = participant.identity;
    element.hidden = true;
    document.body.append(element);
    elements.set(track.sid ?? participant.identity, element);
  };

  // Events tell changes; someone already muted when this device joins is read from the publication.
  const reportMuted = (publication: TrackPublication, participant: Participant) => {
    if (publication.source === Track.Source.Microphone)
      options.on.muted(participant.identity, publication.isMuted);
  };

  room
    .on(RoomEvent.TrackSubscribed, (track, publication, participant) => {
      play(track, participant);
      reportMuted(publication, participant);
    })
    .on(RoomEvent.TrackPublished, reportMuted)
    .on(RoomEvent.TrackUnsubscribed, (track) => {
      for (const element of track.detach()) element.remove();
      if (track.sid) elements.delete(track.sid);
    })
    .on(RoomEvent.ActiveSpeakersChanged, (speakers) => options.on.speakers(speakers.map((p) => p.identity)))
    .on(RoomEvent.TrackMuted, reportMuted)
    .on(RoomEvent.TrackUnmuted, reportMuted)
    .on(RoomEvent.Disconnected, (reason) => {
      if (!left) options.on.lost(String(reason ?? ''));
    });

  // As in calls (media/call-media.ts): LiveKit's 15 s for the peer connection and for a publisher's
  // negotiation failed joins with 'could not establish pc connection' on a slow device (the voice e2e at
  // load 55); waiting longer is better than a failed join.
  await room.connect(mediaServerUrl(options.serverUrl), options.token, {
    peerConnectionTimeout: NEGOTIATION_TIMEOUT_MS,
  });
  const transports = (room.engine as unknown as { pcManager?: { peerConnectionTimeout?: number } }).pcManager;
  if (transports && typeof transports.peerConnectionTimeout === 'number')
    transports.peerConnectionTimeout = NEGOTIATION_TIMEOUT_MS;
  for (const participant of room.remoteParticipants.values())
    for (const publication of participant.audioTrackPublications.values())
      reportMuted(publication, participant);
  // In the room: the microphone publishes meanwhile (the panel shows "connected" without waiting for it).
  void room.localParticipant.setMicrophoneEnabled(true).catch((error: unknown) => {
    options.on.lost(error instanceof Error ? error.message : String(error));
  });

  return {
    setMicrophone: async (enabled) => {
      await room.localParticipant.setMicrophoneEnabled(enabled);
    },
    async inbound() {
      const bytes: Record<string, number> = {};
      for (const participant of room.remoteParticipants.values()) {
        for (const publication of participant.audioTrackPublications.values()) {
          const report = await (publication.track as RemoteTrack | undefined)?.receiver?.getStats();
          report?.forEach((entry: Record<string, unknown>) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'audio')
              bytes[participant.identity] =
                (bytes[participant.identity] ?? 0) + Number(entry.bytesReceived ?? 0);
          });
        }
      }
      return bytes;
    },
    async disconnect() {
      left = true;
      for (const element of elements.values()) element.remove();
      elements.clear();
      await room.disconnect();
    },
  };
}
