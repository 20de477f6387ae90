import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface VoiceSessionRow {
  id: number;
  group_id: number;
  started_by: number;
  started_at: Date;
  ended_at: Date | null;
}

export interface VoiceParticipantRow {
  user_id: number;
  username: string;
  name: string;
  avatar_url: string | null;
  joined_at: Date;
  hand_raised_at: Date | null;
}

export type GroupRole = 'owner' | 'admin' | 'member' | 'subscriber';

/**
 * SQL of group voice sessions. "One per group" is the partial unique index; the end is one conditional
 * UPDATE (`ended_at is null`), so of two nodes ending the same session only one gets the row back.
 */
export function voiceRepository(db: Kysely<Database>) {
  return {
    /** Whether the group exists, and the user's role in it (null: not a member). */
    async membership(groupId: number, userId: number): Promise<{ exists: boolean; role: GroupRole | null }> {
      const row = await db
        .selectFrom('groups as g')
        .leftJoin('conversation_members as m', (j) =>
          j.onRef('m.conversation_id', '=', 'g.id').on('m.user_id', '=', userId),
        )
        .select('m.role')
        .where('g.id', '=', groupId)
        .executeTakeFirst();
      return { exists: row !== undefined, role: (row?.role as GroupRole | null | undefined) ?? null };
    },

    async user(userId: number) {
      return db.selectFrom('users').select(['id', 'name']).where('id', '=', userId).executeTakeFirst();
    },

    async running(groupId: number): Promise<VoiceSessionRow | undefined> {
      return db
        .selectFrom('voice_sessions')
        .selectAll()
        .where('group_id', '=', groupId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
    },

    async find(sessionId: number): Promise<VoiceSessionRow | undefined> {
      return db.selectFrom('voice_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
    },

    /** The running session, started by this user when there was none (a racing start gets the same one). */
    async startOrGet(groupId: number, userId: number): Promise<VoiceSessionRow> {
      for (;;) {
        const { rows } = await sql<VoiceSessionRow>`
          insert into voice_sessions (group_id, started_by) values (${groupId}, ${userId})
          on conflict (group_id) where ended_at is null do nothing
          returning *`.execute(db);
        const row = rows[0] ?? (await this.running(groupId));
        if (row) return row;
      }
    },

    /** True when the user was not in the session before. */
    async addParticipant(sessionId: number, userId: number): Promise<boolean> {
      const { rows } = await sql<{ user_id: number }>`
        insert into voice_participants (session_id, user_id)
        select ${sessionId}, ${userId} where exists
          (select 1 from voice_sessions where id = ${sessionId} and ended_at is null)
        on conflict do nothing
        returning user_id`.execute(db);
      return rows.length > 0;
    },

    /** True when the user was in the session. */
    async removeParticipant(sessionId: number, userId: number): Promise<boolean> {
      const rows = await db
        .deleteFrom('voice_participants')
        .where('session_id', '=', sessionId)
        .where('user_id', '=', userId)
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    async participants(sessionId: number): Promise<VoiceParticipantRow[]> {
      return db
        .selectFrom('voice_participants as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['p.user_id', 'u.username', 'u.name', 'u.avatar_url', 'p.joined_at', 'p.hand_raised_at'])
        .where('p.session_id', '=', sessionId)
        .orderBy('p.joined_at')
        .orderBy('p.user_id')
        .execute();
    },

    async participant(sessionId: number, userId: number): Promise<VoiceParticipantRow | undefined> {
      return db
        .selectFrom('voice_participants as p')
        .innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['p.user_id', 'u.username', 'u.name', 'u.avatar_url', 'p.joined_at', 'p.hand_raised_at'])
        .where('p.session_id', '=', sessionId)
        .where('p.user_id', '=', userId)
        .executeTakeFirst();
    },

    /**
     * Raises or lowers a participant's hand; false when they are not in the session. Raising an already
     * raised hand keeps its first time (its place in the queue).
     */
    async setHand(sessionId: number, userId: number, raised: boolean): Promise<boolean> {
      const rows = await db
        .updateTable('voice_participants')
        .set({ hand_raised_at: raised ? sql<Date>`coalesce(hand_raised_at, now())` : null })
        .where('session_id', '=', sessionId)
        .where('user_id', '=', userId)
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    /** Ends the session (for everyone, or when `onlyIfEmpty` and nobody is left); null if it was over already. */
    async end(sessionId: number, onlyIfEmpty: boolean): Promise<VoiceSessionRow | null> {
      const { rows } = await sql<VoiceSessionRow>`
        update voice_sessions set ended_at = now()
        where id = ${sessionId} and ended_at is null
          ${onlyIfEmpty ? sql`and not exists (select 1 from voice_participants where session_id = ${sessionId})` : sql``}
        returning *`.execute(db);
      const row = rows[0] ?? null;
      if (row) await db.deleteFrom('voice_participants').where('session_id', '=', sessionId).execute();
      return row;
    },
  };
}

export type VoiceRepository = ReturnType<typeof voiceRepository>;
