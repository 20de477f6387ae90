import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database, NewUser, UserRow } from '../../db/schema.ts';
import './tables.ts';

/** Devices remembered per account; an older one past this must solve challenges again. */
const DEVICES_KEPT = 20;

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

    /**
     * The user behind each of these sessions that is not revoked, idle since before `idleSince` or created
     * before `createdSince`, by token hash; using them stamps `last_used_at`. One statement for all.
     */
    async useActiveSessions(
      tokenHashes: string[],
      idleSince: Date,
      createdSince: Date,
    ): Promise<Map<string, number>> {
      const rows = await db
        .updateTable('sessions')
        .set({ last_used_at: new Date() })
        .where('token_hash', 'in', tokenHashes)
        .where('revoked_at', 'is', null)
        .where('last_used_at', '>', idleSince)
        .where('created_at', '>', createdSince)
        .returning(['token_hash', 'user_id'])
        .execute();
      return new Map(rows.map((r) => [r.token_hash, r.user_id]));
    },

    async activeSessionHashes(userId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      return rows.map((r) => r.token_hash);
    },

    /** Socket activity: these live sessions count as used now (one statement for all). */
    async touchSessions(tokenHashes: string[]): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ last_used_at: new Date() })
        .where('token_hash', 'in', tokenHashes)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /**
     * Revokes the sessions idle since before `idleSince` or created before `createdSince`; answers their
     * token hashes. One statement, so with several nodes sweeping each session is answered to one of them.
     */
    async expireSessions(idleSince: Date, createdSince: Date, max = 1000): Promise<string[]> {
      const due = db
        .selectFrom('sessions')
        .select('id')
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('last_used_at', '<=', idleSince), eb('created_at', '<=', createdSince)]))
        .limit(max);
      const rows = await db
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('id', 'in', due)
        .where('revoked_at', 'is', null)
        .returning('token_hash')
        .execute();
      return rows.map((r) => r.token_hash);
    },

    /** The account a device token was given to, if it is still remembered. */
    async deviceOwner(tokenHash: string): Promise<number | null> {
      const row = await db
        .selectFrom('auth_devices')
        .select('user_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    /** Remembers a device of the account (the newest DEVICES_KEPT stay). */
    async rememberDevice(userId: number, tokenHash: string): Promise<void> {
      await db.insertInto('auth_devices').values({ user_id: userId, token_hash: tokenHash }).execute();
      const kept = db
        .selectFrom('auth_devices')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(DEVICES_KEPT);
      await db.deleteFrom('auth_devices').where('user_id', '=', userId).where('id', 'not in', kept).execute();
    },

    /** The login-challenge signing secret, made by the first node that needs it. */
    async challengeSecret(fresh: string): Promise<string> {
      await db
        .insertInto('auth_keys')
        .values({ id: 1, secret: fresh })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await db
        .selectFrom('auth_keys')
        .select('secret')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return row.secret;
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
