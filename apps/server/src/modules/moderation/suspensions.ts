import { ErrorCode, rooms } from '@kadr/contract';
import { sql } from 'kysely';
import type { AppContext } from '../../app-types.ts';
import { AppError } from '../../lib/errors.ts';
import type { LivestreamsService } from '../livestreams/service.ts';
import type { StoriesServices } from '../stories/module.ts';

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});

/** What a suspended person reads when they try to sign in. */
export function suspendedText(until: Date | null, reason: string): string {
  const when = until ? `до ${dateFormat.format(until)} (UTC)` : 'навсегда';
  return `Ваш аккаунт заблокирован модератором ${when}.${reason ? ` Причина: ${reason}` : ''}`;
}

/**
 * Suspending an account: it cannot sign in (and reads why), its sessions and sockets end at once on every
 * node, its live stream ends, and its posts and stories are hidden (the 'suspended' state) until it is lifted.
 * Its comments and chat messages are hidden too while a `user_suspensions` row exists: the comment and
 * message queries leave out the senders named there, so lifting it brings them back unchanged.
 */
export function suspensions(ctx: AppContext) {
  const db = ctx.db.kysely;

  /**
   * The rooms of everyone who shares a chat with the person: a personal chat's peer, a group's or a
   * channel's room (its members' sockets on every node).
   */
  async function sharedChats(userId: number) {
    const { rows } = await sql<{ id: number; type: string; peer_id: number | null }>`
      select c.id, c.type, (
        select pm.user_id from conversation_members pm
        where c.type = 'personal' and pm.conversation_id = c.id and pm.user_id <> ${userId} limit 1
      ) as peer_id
      from conversation_members me join conversations c on c.id = me.conversation_id
      where me.user_id = ${userId}`.execute(db);
    const room = (c: (typeof rows)[number]) =>
      c.type === 'group'
        ? [rooms.group(c.id)]
        : c.type === 'channel'
          ? [rooms.channel(c.id)]
          : c.peer_id !== null
            ? [rooms.user(c.peer_id)]
            : [];
    return { ids: rows.map((c) => c.id), rooms: [...new Set(rows.flatMap(room))] };
  }

  /** Caches that hold the person's content learn it changed; answers the rooms to tell. */
  async function contentChanged(userId: number, posts: number[], storiesChanged: boolean) {
    // Posts they commented on changed their comment count (the trigger on user_suspensions), and so
    // did the reader-side count of those who reported one of their comments.
    const { rows: commented } = await sql<{ post_id: number }>`
      select distinct post_id from post_comments where user_id = ${userId}`.execute(db);
    const { rows: reporters } = await sql<{ user_id: number }>`
      select distinct h.user_id from moderation_hidden h join post_comments c on c.id = h.target_id
      where h.kind = 'comment' and c.user_id = ${userId}`.execute(db);
    await ctx.media.cache.changed({
      posts: [...new Set([...posts, ...commented.map((c) => c.post_id)])],
      feed: true,
      viewers: reporters.map((r) => r.user_id),
    });
    // Their messages leave (or come back to) the previews of every chat they are in; comments and
    // histories are read without a cache.
    const chats = await sharedChats(userId);
    ctx.messenger.messages.tools.listChanged({ conversations: chats.ids, users: [userId] });
    await ctx.profiles.invalidate([userId]);
    if (storiesChanged) await (ctx.modules.stories as StoriesServices).cache.changed({ authors: [userId] });
    return chats.rooms;
  }

  /** Chats already open on other people's devices drop the messages (or fetch them back) without a reload. */
  function announce(userId: number, to: string[], suspended: boolean) {
    if (to.length === 0) return;
    ctx.gateway.io
      .to(to)
      .except(rooms.user(userId))
      .emit('user-suspension-changed', { user_id: userId, suspended });
  }

  async function lift(userId: number): Promise<boolean> {
    const gone = await db
      .deleteFrom('user_suspensions')
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    const { rows: posts } = await sql<{ id: number }>`
      update posts set status = 'done' where user_id = ${userId} and status = 'suspended' returning id`.execute(
      db,
    );
    const { rows: stories } = await sql<{ id: number }>`
      update stories set status = 'ready' where user_id = ${userId} and status = 'suspended' returning id`.execute(
      db,
    );
    const to = await contentChanged(
      userId,
      posts.map((p) => p.id),
      stories.length > 0,
    );
    if (gone) announce(userId, to, false);
    return gone !== undefined;
  }

  return {
    async suspend(userId: number, until: Date | null, reason: string, by: number): Promise<void> {
      await db
        .insertInto('user_suspensions')
        .values({ user_id: userId, until, reason, created_by: by })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({ until, reason, created_by: by, created_at: new Date() }),
        )
        .execute();
      await ctx.auth.endSessionsOf(userId);
      // Sockets whose session was already gone from the table are dropped too, on every node.
      ctx.gateway.io.in(rooms.user(userId)).disconnectSockets(true);
      const { rows: posts } = await sql<{ id: number }>`
        update posts set status = 'suspended' where user_id = ${userId} and status = 'done' returning id`.execute(
        db,
      );
      const { rows: stories } = await sql<{ id: number }>`
        update stories set status = 'suspended' where user_id = ${userId} and status = 'ready' returning id`.execute(
        db,
      );
      announce(
        userId,
        await contentChanged(
          userId,
          posts.map((p) => p.id),
          stories.length > 0,
        ),
        true,
      );
      await (ctx.modules.livestreams as LivestreamsService | undefined)?.endForUser(userId);
    },

    /** Lifts a suspension; false when there was none. */
    lift,

    /** The login gate: refuses a suspended account with the reason; an expired suspension is lifted here. */
    async checkLogin(userId: number): Promise<void> {
      const row = await db
        .selectFrom('user_suspensions')
        .select(['until', 'reason'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return;
      if (row.until && row.until.getTime() <= Date.now()) {
        await lift(userId);
        return;
      }
      throw new AppError(403, ErrorCode.accountSuspended, suspendedText(row.until, row.reason));
    },

    /** Lifts every suspension whose end has passed (the module runs it periodically). */
    async sweep(): Promise<number> {
      const rows = await db
        .selectFrom('user_suspensions')
        .select('user_id')
        .where('until', '<=', new Date())
        .execute();
      for (const row of rows) await lift(row.user_id);
      return rows.length;
    },
  };
}

export type Suspensions = ReturnType<typeof suspensions>;
