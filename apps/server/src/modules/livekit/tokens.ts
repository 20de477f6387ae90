import type { MediaRole, MediaTokenResponse } from '@kadr/contract';
import { MediaErrorCode, MediaErrorText } from '@kadr/contract';
import { AccessToken, TrackSource, type VideoGrant } from 'livekit-server-sdk';
import { AppError } from '../../lib/errors.ts';
import { type MediaRoom, mediaRoomName } from './rooms.ts';

/** Participant attribute that carries the granted role, so webhooks can tell viewers from publishers. */
export const ROLE_ATTRIBUTE = 'kadr.role';

export interface MediaParticipant {
  userId: number;
  /** Display name other participants see. */
  name: string;
}

export interface MediaTokenIssuer {
  /** False while no media server is configured; `issue` then throws 503 media_server_unavailable. */
  readonly available: boolean;
  issue(room: MediaRoom, role: MediaRole, participant: MediaParticipant): Promise<MediaTokenResponse>;
}

export interface MediaTokenOptions {
  /** URL handed to browsers; null while no media server is configured. */
  serverUrl: string | null;
  apiKey: string;
  apiSecret: string;
  /** Token lifetime; LiveKit refreshes the token of a connected participant on its own. */
  ttlSeconds?: number;
}

export const participantIdentity = (userId: number) => `user-${userId}`;

export function userIdOfIdentity(identity: string): number | null {
  const match = /^user-([1-9]\d{0,9})$/.exec(identity);
  return match ? Number(match[1]) : null;
}

/**
 * What each role may do. The server enforces it: a viewer's publish is refused by LiveKit, a guest can
 * only publish a microphone. Nobody may send data packets: a packet carries whatever name its sender
 * writes, so text others read (the live chat) goes through the server, which names the author.
 */
export function grantFor(role: MediaRole, room: string): VideoGrant {
  const base = { room, roomJoin: true, canSubscribe: true, canPublishData: false };
  switch (role) {
    case 'host':
      return { ...base, canPublish: true, canPublishSources: [TrackSource.CAMERA, TrackSource.MICROPHONE] };
    case 'guest':
      return { ...base, canPublish: true, canPublishSources: [TrackSource.MICROPHONE] };
    case 'viewer':
      return { ...base, canPublish: false };
  }
}

/**
 * Mints LiveKit access tokens. Calls give both sides 'host' (camera and microphone); voice chats give
 * speakers 'guest' (microphone only); streams use all three roles.
 */
export function mediaTokenIssuer(options: MediaTokenOptions): MediaTokenIssuer {
  const { serverUrl, apiKey, apiSecret, ttlSeconds = 2 * 60 * 60 } = options;
  const available = Boolean(serverUrl && apiKey && apiSecret);
  return {
    available,
    async issue(room, role, participant) {
      if (!available || !serverUrl) {
        throw new AppError(503, MediaErrorCode.mediaServerUnavailable, MediaErrorText.mediaServerUnavailable);
      }
      const name = mediaRoomName(room);
      const token = new AccessToken(apiKey, apiSecret, {
        identity: participantIdentity(participant.userId),
        name: participant.name,
        ttl: ttlSeconds,
        attributes: { [ROLE_ATTRIBUTE]: role },
      });
      token.addGrant(grantFor(role, name));
      return {
        server_url: serverUrl.replace(/^http(s?):\/\//, 'ws$1://'),
        access_token: await token.toJwt(),
        role,
      };
    },
  };
}
