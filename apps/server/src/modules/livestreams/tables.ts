import type { Generated, Selectable } from 'kysely';

export interface LiveStreamsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  status: 'live' | 'ended';
  started_at: Generated<Date>;
  ended_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface LiveStreamGuestsTable {
  stream_id: number;
  user_id: number;
  added_at: Generated<Date>;
}

export interface LiveStreamMessagesTable {
  id: Generated<number>;
  stream_id: number;
  sender_id: number;
  content: string;
  temp_id: string;
  created_at: Generated<Date>;
}

export type LiveStreamRow = Selectable<LiveStreamsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    live_streams: LiveStreamsTable;
    live_stream_guests: LiveStreamGuestsTable;
    live_stream_messages: LiveStreamMessagesTable;
  }
}
