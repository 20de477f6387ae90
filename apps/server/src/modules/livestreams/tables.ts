import type { Generated, Selectable } from 'kysely';

export interface LiveStreamsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  status: 'live' | 'ended';
  started_at: Generated<Date>;
  ended_at: Date | null;
  slow_mode_seconds: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface LiveStreamGuestsTable {
  stream_id: number;
  user_id: number;
  added_at: Generated<Date>;
  moderator: Generated<boolean>;
}

export interface LiveChatMessagesTable {
  id: Generated<number>;
  stream_id: number;
  user_id: number;
  text: string;
  temp_id: string;
  created_at: Generated<Date>;
  deleted_at: Date | null;
  deleted_by: number | null;
}

/** live_stream_mutes and live_stream_bans. */
export interface LiveStreamRestrictionsTable {
  stream_id: number;
  user_id: number;
  by_user_id: number | null;
  created_at: Generated<Date>;
}

export interface LiveChatSlowModeTable {
  stream_id: number;
  user_id: number;
  last_sent_at: Date;
}

export type LiveStreamRow = Selectable<LiveStreamsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    live_streams: LiveStreamsTable;
    live_stream_guests: LiveStreamGuestsTable;
    live_chat_messages: LiveChatMessagesTable;
    live_stream_mutes: LiveStreamRestrictionsTable;
    live_stream_bans: LiveStreamRestrictionsTable;
    live_chat_slow_mode: LiveChatSlowModeTable;
  }
}
