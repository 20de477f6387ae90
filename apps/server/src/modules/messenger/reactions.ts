import {
  type MessageReaction,
  REACTION_USERS_SHOWN,
  REACTIONS,
  type ReactionKind,
  type ReactionsResponse,
} from '@kadr/contract';
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { ConversationTools } from './conversations.ts';

export interface MessageReactionsTable {
  message_id: number;
  user_id: number;
  reaction: ReactionKind;
  created_at: Generated<Date>;
}

// Migration 0110-messenger-reactions.
declare module '../../db/schema.ts' {
  interface Database {
    message_reactions: MessageReactionsTable;
  }
}

const order = (r: ReactionKind) => REACTIONS.indexOf(r);

/** Reactions of these messages, grouped per message in the picker's order, reactors earliest first. */
export async function reactionsOf(
  db: Kysely<Database>,
  messageIds: number[],
): Promise<Map<number, MessageReaction[]>> {
  const out = new Map<number, MessageReaction[]>();
  if (messageIds.length === 0) return out;
  const rows = await db
    .selectFrom('message_reactions as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.message_id', 'r.reaction', 'r.user_id', 'u.name', 'u.username'])
    .where('r.message_id', 'in', messageIds)
    .orderBy('r.created_at')
    .orderBy('r.user_id')
    .execute();
  for (const row of rows) {
    const list = out.get(row.message_id) ?? [];
    let entry = list.find((e) => e.reaction === row.reaction);
    if (!entry) {
      entry = { reaction: row.reaction, count: 0, users: [] };
      list.push(entry);
      out.set(row.message_id, list);
    }
    entry.count += 1;
    if (entry.users.length < REACTION_USERS_SHOWN)
      entry.users.push({ id: row.user_id, name: row.name || row.username });
  }
  for (const list of out.values()) list.sort((a, b) => order(a.reaction) - order(b.reaction));
  return out;
}

/**
 * Toggling a reaction: only a member who can see the message may (404 when it is gone or hidden for them,
 * 403 outside the chat, via `visibleMessage`); both directions are idempotent; every member hears
 * `message-reactions` with the new totals.
 */
export function reactionsService(deps: {
  db: Kysely<Database>;
  tools: ConversationTools;
  limits: RateLimits;
}) {
  const { db, tools } = deps;
  deps.limits.define('message.react', { count: 120, windowMs: 60_000, key: 'user' });

  async function set(userId: number, messageId: number, reaction: ReactionKind, on: boolean) {
    const loaded = await tools.visibleMessage(userId, messageId);
    // Taking a reaction back reaches nobody; adding one never reaches someone walled off by a block.
    if (on) await tools.assertReaches(userId, loaded);
    await deps.limits.consume('message.react', { user: userId });
    const changed = on
      ? await db
          .insertInto('message_reactions')
          .values({ message_id: messageId, user_id: userId, reaction })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
      : await db
          .deleteFrom('message_reactions')
          .where('message_id', '=', messageId)
          .where('user_id', '=', userId)
          .where('reaction', '=', reaction)
          .executeTakeFirst();
    const reactions = (await reactionsOf(db, [messageId])).get(messageId) ?? [];
    const count =
      'numInsertedOrUpdatedRows' in changed ? changed.numInsertedOrUpdatedRows : changed.numDeletedRows;
    if (count && count > 0n)
      tools.fanOut(loaded, 'message-reactions', (chat) => ({ chat, message_id: messageId, reactions }));
    return { message_id: messageId, reactions } satisfies ReactionsResponse;
  }

  return {
    react: (userId: number, messageId: number, reaction: ReactionKind) =>
      set(userId, messageId, reaction, true),
    unreact: (userId: number, messageId: number, reaction: ReactionKind) =>
      set(userId, messageId, reaction, false),
  };
}
