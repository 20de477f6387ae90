import type { FastifyBaseLogger } from 'fastify';
import { TrackSource } from 'livekit-server-sdk';
import { isNotFound, roomServiceClient } from '../livekit/room-service.ts';
import { ROLE_ATTRIBUTE } from '../livekit/tokens.ts';

/**
 * What the stream service asks of the LiveKit room itself (through its room service API): change a
 * participant's grant in place (no reconnect) and close a room, disconnecting everyone.
 */
export interface StreamRoomControl {
  /** Lets a participant publish its microphone (guest) or nothing (viewer); LiveKit unpublishes what is no longer allowed. */
  setRole(room: string, identity: string, role: 'guest' | 'viewer'): Promise<void>;
  /** Takes a participant out of the room now (a ban); one not in the room is no error. */
  remove(room: string, identity: string): Promise<void>;
  close(room: string): Promise<void>;
}

export function livekitRoomControl(
  options: { url: string | null; apiKey: string; apiSecret: string },
  log: FastifyBaseLogger,
): StreamRoomControl {
  const client = roomServiceClient(options);
  return {
    async setRole(room, identity, role) {
      if (!client) return;
      try {
        // Permissions are replaced whole, so every field the role keeps is set again.
        await client.updateParticipant(room, identity, {
          attributes: { [ROLE_ATTRIBUTE]: role },
          permission: {
            canSubscribe: true,
            // Nobody's data packets reach the room: the chat goes through the server only.
            canPublishData: false,
            canPublish: role === 'guest',
            canPublishSources: role === 'guest' ? [TrackSource.MICROPHONE] : [],
          },
        });
      } catch (error) {
        // Not in the room now: the role is read from the guest list when the next token is issued.
        if (!isNotFound(error))
          log.warn({ err: error, room, identity }, 'livestreams: participant update failed');
      }
    },
    async remove(room, identity) {
      if (!client) return;
      try {
        await client.removeParticipant(room, identity);
      } catch (error) {
        if (!isNotFound(error))
          log.warn({ err: error, room, identity }, 'livestreams: participant removal failed');
      }
    },
    async close(room) {
      if (!client) return;
      try {
        await client.deleteRoom(room);
      } catch (error) {
        if (!isNotFound(error)) log.warn({ err: error, room }, 'livestreams: room close failed');
      }
    },
  };
}
