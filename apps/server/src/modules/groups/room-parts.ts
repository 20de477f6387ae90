import { ErrorCode, ErrorText, rooms } from '@kadr/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { Gateway, KadrSocket } from '../../realtime/gateway.ts';
import type { MessagesService } from '../messenger/service.ts';

/**
 * What groups and channels share: both are a conversation with members in `conversation_members`,
 * a socket room per chat, and a unique address (slug). Each module keeps its own rules; the SQL and
 * the room moves that were the same in both live here once.
 */
export type RoomType = 'group' | 'channel';

const UNIQUE_VIOLATION = '23505';

/** A unique-violation on the slug becomes the 409 the client shows by the field; anything else passes. */
export const slugTaken = (err: unknown): unknown =>
  (err as { code?: string }).code === UNIQUE_VIOLATION
    ? new AppError(409, ErrorCode.slugTaken, ErrorText.slugTaken, { slug: ErrorText.slugTaken })
    : err;

/** Most public rooms a search answers (the list under the chat search). */
export const ROOM_SEARCH_LIMIT = 20;

const escapeLike = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `lower(title) like %q%` or `lower(slug) like %q%` (a leading `@` of the query is the slug's). */
export function titleOrSlugMatches(title: string, slug: string, query: string): Expression<SqlBool> {
  const q = query.trim().toLowerCase();
  const like = `%${escapeLike(q.replace(/^@/, ''))}%`;
  return sql<SqlBool>`(lower(${sql.ref(title)}) like ${`%${escapeLike(q)}%`} or lower(${sql.ref(slug)}) like ${like})`;
}

/** Membership SQL that is the same for a group and a channel. */
export function roomMembership(db: Kysely<Database>, type: RoomType) {
  return {
    async removeMember(id: number, userId: number): Promise<boolean> {
      const rows = await db
        .deleteFrom('conversation_members')
        .where('conversation_id', '=', id)
        .where('user_id', '=', userId)
        .returning('user_id')
        .execute();
      return rows.length > 0;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('conversations').where('id', '=', id).where('type', '=', type).execute();
    },

    /** Ids of this kind of room the user is in (their sockets join these rooms). */
    async idsFor(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('conversation_members as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select('c.id')
        .where('m.user_id', '=', userId)
        .where('c.type', '=', type)
        .execute();
      return rows.map((r) => r.id);
    },

    async userExists(id: number): Promise<boolean> {
      return (
        (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
      );
    },
  };
}

/** A socket joins its user's rooms of this type as it connects; later changes move it (`roomSockets`). */
export function joinRoomsOnConnect(
  gateway: Gateway,
  type: RoomType,
  idsFor: (userId: number) => Promise<number[]>,
  log: FastifyBaseLogger,
) {
  const room = type === 'group' ? rooms.group : rooms.channel;
  gateway.io.on('connection', (socket: KadrSocket) => {
    idsFor(socket.data.userId)
      .then((ids) => {
        if (ids.length > 0 && socket.connected) socket.join(ids.map(room));
      })
      .catch((err: unknown) => log.error({ err }, `joining ${type} rooms failed`));
  });
}

/**
 * Socket room moves of one kind of room, on every node (Redis adapter). Each move follows a committed
 * membership change, so it is also where the messenger hears of it (`messages.roomChanged`: chat lists,
 * receipts).
 */
export function roomSockets(
  gateway: Gateway,
  type: RoomType,
  messages: Pick<MessagesService, 'roomChanged'>,
) {
  const room = type === 'group' ? rooms.group : rooms.channel;
  return {
    /** Sockets of these users join the room now. */
    join(id: number, userIds: readonly number[]) {
      messages.roomChanged(id, { joined: userIds });
      for (const u of userIds) gateway.io.in(rooms.user(u)).socketsJoin(room(id));
    },
    leave(id: number, userId: number) {
      messages.roomChanged(id, { left: [userId] });
      gateway.io.in(rooms.user(userId)).socketsLeave(room(id));
    },
    /** Every socket leaves the room (the room is gone). */
    close(id: number) {
      messages.roomChanged(id);
      gateway.io.in(room(id)).socketsLeave(room(id));
    },
    /** The room, and a user no longer (or not yet) in it: an event sent to both reaches each socket once. */
    audience(id: number, alsoUser?: number): string[] {
      return [room(id), ...(alsoUser === undefined ? [] : [rooms.user(alsoUser)])];
    },
  };
}
