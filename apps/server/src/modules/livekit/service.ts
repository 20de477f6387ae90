import { MediaErrorCode, MediaErrorText, type MediaRole, type MediaRoomState } from '@kadr/contract';
import { type RoomServiceClient, WebhookReceiver } from 'livekit-server-sdk';
import { AppError, errors } from '../../lib/errors.ts';
import { type MediaRoomEvent, toMediaRoomEvent, toMediaRoomState } from './mappers.ts';
import type { MediaRoomsRepository } from './repository.ts';
import { isNotFound } from './room-service.ts';
import { type MediaTokenIssuer, participantIdentity } from './tokens.ts';

export interface MediaPlaneDeps {
  tokens: MediaTokenIssuer;
  repo: MediaRoomsRepository;
  /** The key and secret LiveKit signs its webhooks with (the same pair that signs our tokens). */
  apiKey: string;
  apiSecret: string;
  /** LiveKit's room service (null without a media server): takes a participant out of a room. */
  rooms?: Pick<RoomServiceClient, 'removeParticipant'> | null;
}

/**
 * The media plane: tokens for streams, calls and voice rooms, and the room state LiveKit reports through
 * its webhooks. Feature modules (livestreams, calls, voice) call `tokens.issue` and read counts here.
 */
export function mediaPlaneService({ tokens, repo, apiKey, apiSecret, rooms = null }: MediaPlaneDeps) {
  const receiver = apiKey && apiSecret ? new WebhookReceiver(apiKey, apiSecret) : null;
  const listeners = new Set<(event: MediaRoomEvent) => Promise<void> | void>();

  async function apply(event: MediaRoomEvent): Promise<void> {
    await repo.transaction(async (tx) => {
      await repo.insertIfMissing(tx, event.room, event.roomSid, event.at);
      const room = await repo.lock(tx, event.room);
      if (!room) return;
      // A finished room whose sid matches the event is the same session: late events must not revive it.
      const staleSession = room.status === 'finished' && room.sid === event.roomSid;
      const newSession = room.sid !== event.roomSid && !staleSession;
      switch (event.type) {
        case 'room_started': {
          const duplicate = room.status === 'active' && room.sid === event.roomSid;
          const older = room.status === 'active' && event.at < room.started_at;
          if (!staleSession && !duplicate && !older)
            await repo.activate(tx, event.room, event.roomSid, event.at);
          return;
        }
        case 'room_finished':
          if (room.status === 'finished') return;
          // A finish for an older session must not end the newer one that already started.
          if (room.sid !== null && room.sid !== event.roomSid) return;
          await repo.finish(tx, event.room, event.at);
          return;
        case 'participant_joined':
        case 'participant_left': {
          if (newSession && room.status === 'finished')
            await repo.activate(tx, event.room, event.roomSid, event.at);
          const record = {
            participantSid: event.participantSid,
            room: event.room,
            identity: event.identity,
            role: event.role,
            at: event.at,
          };
          if (event.type === 'participant_joined' && !staleSession) await repo.join(tx, record);
          else await repo.leave(tx, record);
          await repo.recount(tx, event.room);
          return;
        }
      }
    });
  }

  return {
    tokens,

    /** Verifies LiveKit's signature (a JWT whose sha256 claim is the body's hash), then keeps room state. */
    async receiveWebhook(body: string | null, authorization: string | undefined): Promise<void> {
      if (!receiver || !authorization || body === null) throw invalidSignature();
      const event = await receiver.receive(body, authorization).catch(() => {
        throw invalidSignature();
      });
      const roomEvent = toMediaRoomEvent(event);
      if (!roomEvent) return;
      await apply(roomEvent);
      // After the room state is stored, so listeners (a stream's count, its end) read the new state.
      for (const listener of listeners) await listener(roomEvent);
    },

    /**
     * Takes a user out of every media room they are in now: their account is going, and a LiveKit token
     * cannot be revoked before it expires. A participant already gone is no error.
     */
    async disconnectEverywhere(userId: number): Promise<void> {
      if (!rooms) return;
      const identity = participantIdentity(userId);
      for (const room of await repo.roomsWith(identity))
        await rooms.removeParticipant(room, identity).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
    },

    /** Hears every webhook event once it is applied (on the node that received it). */
    onEvent(listener: (event: MediaRoomEvent) => Promise<void> | void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    apply,

    /**
     * The state of a room for one of its participants: someone who joined its current (or last) session.
     * Anyone else gets the same 404 as for a room that does not exist, so a room's existence does not leak.
     */
    async room(name: string, userId: number): Promise<MediaRoomState> {
      const row = await repo.find(name);
      if (!row || !(await repo.hasParticipant(name, participantIdentity(userId), row.started_at)))
        throw errors.notFound(MediaErrorText.roomNotFound);
      return toMediaRoomState(row);
    },

    /** Participants present in a room now, optionally only those holding one role (a stream's viewers). */
    countPresent: (name: string, role?: MediaRole) => repo.countPresent(name, role),
  };
}

function invalidSignature() {
  return new AppError(401, MediaErrorCode.invalidWebhookSignature, MediaErrorText.invalidWebhookSignature);
}

export type MediaPlaneService = ReturnType<typeof mediaPlaneService>;
