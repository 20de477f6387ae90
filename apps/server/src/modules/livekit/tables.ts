import type { Generated, Selectable } from 'kysely';

export interface MediaRoomsTable {
  name: string;
  sid: string | null;
  status: 'active' | 'finished';
  participant_count: Generated<number>;
  started_at: Generated<Date>;
  finished_at: Date | null;
  updated_at: Generated<Date>;
}

export interface MediaRoomParticipantsTable {
  participant_sid: string;
  room_name: string;
  identity: string;
  /** The role the token granted (host, guest, viewer), read back from the participant's attributes. */
  role: string | null;
  joined_at: Generated<Date>;
  left_at: Date | null;
}

export type MediaRoomRow = Selectable<MediaRoomsTable>;

// The tables of migration 0002 join the shared Database type from here, so the media plane's schema
// lives beside the code that owns it instead of in a file every module edits.
declare module '../../db/schema.ts' {
  interface Database {
    media_rooms: MediaRoomsTable;
    media_room_participants: MediaRoomParticipantsTable;
  }
}
