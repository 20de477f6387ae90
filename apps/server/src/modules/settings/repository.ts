import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

export function settingsRepository(db: Kysely<Database>) {
  return {
    db,
    async settings(userId: number): Promise<unknown> {
      const row = await db
        .selectFrom('user_settings')
        .select('data')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.data ?? null;
    },
    async saveSettings(userId: number, data: unknown) {
      const json = JSON.stringify(data);
      await db
        .insertInto('user_settings')
        .values({ user_id: userId, data: sql`${json}::jsonb` })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ data: sql`${json}::jsonb`, updated_at: sql`now()` }),
        )
        .execute();
    },
    async blockedIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('user_blocks')
        .select('blocked_id')
        .where('blocker_id', '=', userId)
        .execute();
      return rows.map((r) => r.blocked_id);
    },
    /** Who blocked `userId` (the other side of `blockedIds`). */
    async blockerIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('user_blocks')
        .select('blocker_id')
        .where('blocked_id', '=', userId)
        .execute();
      return rows.map((r) => r.blocker_id);
    },
    async blockedUsers(userId: number) {
      return db
        .selectFrom('user_blocks as b')
        .innerJoin('users as u', 'u.id', 'b.blocked_id')
        .select(['u.id', 'u.username', 'u.name', 'u.avatar_url', 'u.avatar_thumbnail_url'])
        .where('b.blocker_id', '=', userId)
        .orderBy('b.created_at', 'desc')
        .execute();
    },
    async setBlock(blocker: number, blocked: number, on: boolean) {
      if (on)
        await db
          .insertInto('user_blocks')
          .values({ blocker_id: blocker, blocked_id: blocked })
          .onConflict((oc) => oc.doNothing())
          .execute();
      else
        await db
          .deleteFrom('user_blocks')
          .where('blocker_id', '=', blocker)
          .where('blocked_id', '=', blocked)
          .execute();
    },
    async follows(follower: number, followee: number): Promise<boolean> {
      const row = await db
        .selectFrom('follows')
        .select('follower_id')
        .where('follower_id', '=', follower)
        .where('followee_id', '=', followee)
        .executeTakeFirst();
      return row !== undefined;
    },
    userByUsername(username: string) {
      return db
        .selectFrom('users')
        .select(['id', 'username'])
        .where(sql<string>`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },
    passwordHash(userId: number) {
      return db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    },
    async setPasswordHash(userId: number, hash: string) {
      await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    },
    /** Live sessions (not revoked, used since `idleSince`), newest use first. */
    activeSessions(userId: number, idleSince: Date, createdSince: Date) {
      return db
        .selectFrom('sessions')
        .select(['id', 'token_hash', 'user_agent', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('last_used_at', '>', idleSince)
        .where('created_at', '>', createdSince)
        .orderBy('last_used_at', 'desc')
        .execute();
    },
    /** Every unrevoked session of the user (idle ones too: a password change ends them all). */
    async openTokenHashes(userId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
      return rows.map((r) => r.token_hash);
    },
    sessionById(userId: number, id: number) {
      return db
        .selectFrom('sessions')
        .select(['token_hash'])
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },
    /** Deletes the user; every table referencing users cascades (policy: docs/account-deletion.md). */
    async deleteUser(userId: number) {
      await db.transaction().execute(async (trx) => {
        // Counters on the other side of the user's follows stay right.
        await sql`update users set followers_count = greatest(followers_count - 1, 0)
          where id in (select followee_id from follows where follower_id = ${userId})`.execute(trx);
        await sql`update users set following_count = greatest(following_count - 1, 0)
          where id in (select follower_id from follows where followee_id = ${userId})`.execute(trx);
        await trx.deleteFrom('users').where('id', '=', userId).execute();
      });
    },

    // Chat mutes
    async setMute(userId: number, conversationId: number, until: Date | null | 'off') {
      if (until === 'off') {
        await db
          .deleteFrom('chat_mutes')
          .where('user_id', '=', userId)
          .where('conversation_id', '=', conversationId)
          .execute();
        return;
      }
      await db
        .insertInto('chat_mutes')
        .values({ user_id: userId, conversation_id: conversationId, muted_until: until })
        .onConflict((oc) => oc.columns(['user_id', 'conversation_id']).doUpdateSet({ muted_until: until }))
        .execute();
    },
    /** The user's live mutes with what their chat is. */
    mutes(userId: number) {
      return db
        .selectFrom('chat_mutes as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(['c.id', 'c.type', 'c.user_low', 'c.user_high', 'm.muted_until'])
        .where('m.user_id', '=', userId)
        .where((eb) => eb.or([eb('m.muted_until', 'is', null), eb('m.muted_until', '>', new Date())]))
        .execute();
    },
    /** Of `userIds`, those who muted the conversation (now). */
    async mutedAmong(conversationId: number, userIds: number[]): Promise<Set<number>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('chat_mutes')
        .select('user_id')
        .where('conversation_id', '=', conversationId)
        .where('user_id', 'in', userIds)
        .where((eb) => eb.or([eb('muted_until', 'is', null), eb('muted_until', '>', new Date())]))
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },
    /**
     * Members of the chat with a push subscription: a message to a group of thousands looks at the few
     * subscribed devices, not at every member (one probe of the member key per subscribed user).
     */
    async subscribedMemberIds(conversationId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('push_subscriptions as s')
        .innerJoin('conversation_members as cm', (j) =>
          j.onRef('cm.user_id', '=', 's.user_id').on('cm.conversation_id', '=', conversationId),
        )
        .select('s.user_id')
        .distinct()
        .execute();
      return rows.map((r) => r.user_id);
    },
    async usernamesOf(ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.username]));
    },

    // Push
    async pushKeys(): Promise<{ public_key: string; private_key: string } | undefined> {
      return db
        .selectFrom('push_keys')
        .select(['public_key', 'private_key'])
        .where('id', '=', 1)
        .executeTakeFirst();
    },
    /** Stores the pair unless another node stored one first; answers the pair that is kept. */
    async storePushKeys(publicKey: string, privateKey: string) {
      await db
        .insertInto('push_keys')
        .values({ id: 1, public_key: publicKey, private_key: privateKey })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return db
        .selectFrom('push_keys')
        .select(['public_key', 'private_key'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
    },
    /**
     * The endpoint belongs to the latest session that subscribed it, whoever held it before. The user keeps
     * at most `keep` subscriptions: the oldest beyond that are deleted in the same transaction.
     */
    async subscribe(
      userId: number,
      sessionHash: string,
      endpoint: string,
      p256dh: string,
      auth: string,
      keep: number,
    ) {
      await db.transaction().execute(async (tx) => {
        await tx
          .insertInto('push_subscriptions')
          .values({ user_id: userId, session_hash: sessionHash, endpoint, p256dh, auth })
          .onConflict((oc) =>
            oc.column('endpoint').doUpdateSet({
              user_id: userId,
              session_hash: sessionHash,
              p256dh,
              auth,
              created_at: sql`now()`,
            }),
          )
          .execute();
        const kept = tx
          .selectFrom('push_subscriptions')
          .select('id')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(keep);
        await tx
          .deleteFrom('push_subscriptions')
          .where('user_id', '=', userId)
          .where('id', 'not in', kept)
          .execute();
      });
    },
    /** Of these session token hashes, those with a push subscription. */
    async sessionsWithPush(sessionHashes: string[]): Promise<Set<string>> {
      if (sessionHashes.length === 0) return new Set();
      const rows = await db
        .selectFrom('push_subscriptions')
        .select('session_hash')
        .where('session_hash', 'in', sessionHashes)
        .execute();
      return new Set(rows.map((r) => r.session_hash as string));
    },
    async unsubscribe(userId: number, endpoint: string) {
      await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .execute();
    },
    subscriptions(userIds: number[]) {
      return db
        .selectFrom('push_subscriptions')
        .select(['id', 'user_id', 'endpoint', 'p256dh', 'auth'])
        .where('user_id', 'in', userIds)
        .execute();
    },
    async dropSubscription(id: number) {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    },
    /** Deletes the subscriptions made in these sessions; answers how many there were. */
    async dropSessionSubscriptions(sessionHashes: string[]): Promise<number> {
      if (sessionHashes.length === 0) return 0;
      const result = await db
        .deleteFrom('push_subscriptions')
        .where('session_hash', 'in', sessionHashes)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SettingsRepository = ReturnType<typeof settingsRepository>;
