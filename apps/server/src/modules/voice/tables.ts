import type { Generated } from 'kysely';

/** One session of a group's voice chat; at most one per group has `ended_at` null (a partial unique index). */
export interface VoiceSessionsTable {
  id: Generated<number>;
  group_id: number;
  started_by: number;
  started_at: Generated<Date>;
  ended_at: Date | null;
}

/** Who is in a session now: added on join (and by the media room's webhooks), removed on leave. */
export interface VoiceParticipantsTable {
  session_id: number;
  user_id: number;
  joined_at: Generated<Date>;
  /** Set while the participant's hand is raised. */
  hand_raised_at: Date | null;
}

declare module '../../db/schema.ts' {
  interface Database {
    voice_sessions: VoiceSessionsTable;
    voice_participants: VoiceParticipantsTable;
  }
}
