import type { MediaRoomState } from '@kadr/contract';
import type { WebhookEvent } from 'livekit-server-sdk';
import type { MediaRoomRow } from './tables.ts';
import { ROLE_ATTRIBUTE } from './tokens.ts';

interface RoomRef {
  room: string;
  roomSid: string;
  at: Date;
}

/** The webhook events the media plane keeps state from; LiveKit's own objects stop at this boundary. */
export type MediaRoomEvent =
  | ({ type: 'room_started' } & RoomRef)
  | ({ type: 'room_finished' } & RoomRef)
  | ({ type: 'participant_joined'; participantSid: string; identity: string; role: string | null } & RoomRef)
  | ({ type: 'participant_left'; participantSid: string; identity: string; role: string | null } & RoomRef);

/** Maps a verified LiveKit webhook to a room event; null for events that do not change room state. */
export function toMediaRoomEvent(event: WebhookEvent): MediaRoomEvent | null {
  const room = event.room;
  if (!room?.name) return null;
  const createdAt = Number(event.createdAt);
  const ref: RoomRef = {
    room: room.name,
    roomSid: room.sid,
    at: createdAt > 0 ? new Date(createdAt * 1000) : new Date(),
  };
  switch (event.event) {
    case 'room_started':
      return { type: 'room_started', ...ref };
    case 'room_finished':
      return { type: 'room_finished', ...ref };
    case 'participant_joined':
    case 'participant_left':
    case 'participant_connection_aborted': {
      const participant = event.participant;
      if (!participant?.sid) return null;
      return {
        type: event.event === 'participant_joined' ? 'participant_joined' : 'participant_left',
        ...ref,
        participantSid: participant.sid,
        identity: participant.identity,
        role: participant.attributes[ROLE_ATTRIBUTE] ?? null,
      };
    }
    default:
      return null;
  }
}

export function toMediaRoomState(row: MediaRoomRow): MediaRoomState {
  return {
    name: row.name,
    status: row.status,
    participant_count: row.participant_count,
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}
