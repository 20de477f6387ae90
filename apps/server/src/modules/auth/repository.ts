import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, NewUser, UserRow } from '../../db/schema.ts';

export function authRepository(db: Kysely<Database>) {
  return {
    findUserByUsername(username: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },

    findUserById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Inserts the user, or returns undefined when the username is taken (case-insensitively). */
    async insertUser(user: NewUser): Promise<UserRow | undefined> {
      return db
        .insertInto('users')
        .values(user)
        .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    async insertSession(userId: number, tokenHash: string, userAgent: string | null): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ user_id: userId, token_hash: tokenHash, user_agent: userAgent, revoked_at: null })
        .execute();
    },

    /** The session unless revoked or idle since before `idleSince`; using it stamps `last_used_at`. */
    async useActiveSession(tokenHash: string, idleSince: Date): Promise<{ user_id: number } | undefined> {
      return db
        .updateTable('sessions')
        .set({ last_used_at: new Date() })
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where('last_used_at', '>', idleSince)
        .returning('user_id')
        .executeTakeFirst();
    },

    async revokeSession(tokenHash: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
