import { type Kysely, sql } from 'kysely';

/**
 * Messenger: conversations (personal, favorites; groups and channels later through `type`),
 * per-member state as watermarks (read, delivered, cleared), messages, per-user hiding, attachments.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    // Personal: the two user ids, smaller first; favorites: the owner twice. Null for groups/channels.
    .addColumn('user_low', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('user_high', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('conversations_type', sql`type in ('personal', 'favorites', 'group', 'channel')`)
    .addCheckConstraint(
      'conversations_pair',
      sql`(type = 'personal' and user_low < user_high) or (type = 'favorites' and user_low = user_high)
        or (type in ('group', 'channel') and user_low is null and user_high is null)`,
    )
    .addUniqueConstraint('conversations_pair_unique', ['user_low', 'user_high'])
    .execute();

  await db.schema
    .createTable('conversation_members')
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Ascending order among one's pinned chats; null when not pinned.
    .addColumn('pin_order', 'integer')
    // Watermarks over message ids: messages up to these ids are read / received / removed for this member.
    .addColumn('last_read_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_delivered_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cleared_up_to', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('conversation_members_pk', ['conversation_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('conversation_members_user_idx')
    .on('conversation_members')
    .columns(['user_id', 'conversation_id'])
    .execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('conversation_id', 'integer', (c) =>
      c.notNull().references('conversations.id').onDelete('cascade'),
    )
    .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('message_type', 'text', (c) => c.notNull().defaultTo('text'))
    .addColumn('temp_id', 'text')
    .addColumn('is_forwarded', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('forwarded_from_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('edited_at', 'timestamptz')
    // Deleted for everyone: the row stays (so a resent temp_id cannot recreate it), the content goes.
    .addColumn('deleted_at', 'timestamptz')
    .addUniqueConstraint('messages_sender_temp_unique', ['sender_id', 'temp_id'])
    .execute();
  await db.schema
    .createIndex('messages_conversation_idx')
    .on('messages')
    .columns(['conversation_id', 'id'])
    .execute();
  await sql`create index messages_content_fts_idx on messages using gin (to_tsvector('russian', content))`.execute(
    db,
  );

  await db.schema
    .createTable('message_hidden')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('message_hidden_pk', ['user_id', 'message_id'])
    .execute();

  await db.schema
    .createTable('message_files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uploader_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Null while uploaded but not yet sent.
    .addColumn('message_id', 'integer', (c) => c.references('messages.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('file_url', 'text', (c) => c.notNull())
    .addColumn('thumbnail_url', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration', 'real')
    .addColumn('file_size', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('message_files_message_idx')
    .on('message_files')
    .columns(['message_id', 'position'])
    .execute();
  await db.schema
    .createIndex('message_files_uploader_idx')
    .on('message_files')
    .columns(['uploader_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('message_files').execute();
  await db.schema.dropTable('message_hidden').execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('conversation_members').execute();
  await db.schema.dropTable('conversations').execute();
}
