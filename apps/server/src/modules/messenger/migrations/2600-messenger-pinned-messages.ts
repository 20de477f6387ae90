import { type Kysely, sql } from 'kysely';

/**
 * A chat's pinned message (one per chat, for every member): the bar at the top of the chat. A message
 * deleted for good takes its pin with it; one deleted for everyone is filtered out when read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations add column pinned_message_id integer
    references messages(id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations drop column pinned_message_id`.execute(db);
}

declare module '../../../db/schema.ts' {
  interface ConversationsTable {
    pinned_message_id: number | null;
  }
}
