import { type Kysely, sql } from 'kysely';

/** Reactions on messages: one row per (message, user, reaction); the fixed set is checked here too. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_reactions')
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('reaction', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('message_reactions_pk', ['message_id', 'user_id', 'reaction'])
    .addCheckConstraint(
      'message_reactions_kind',
      sql`reaction in ('like', 'heart', 'laugh', 'fire', 'sad', 'dislike')`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_reactions').execute();
}
