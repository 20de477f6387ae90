import { type Kysely, sql } from 'kysely';

/**
 * Guessing defences: the devices an account signed in from (a device token's hash; that device skips the
 * login challenge), and the secret every node signs login challenges with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_devices')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('auth_devices_user_idx').on('auth_devices').column('user_id').execute();
  await db.schema
    .createTable('auth_keys')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auth_keys').execute();
  await db.schema.dropTable('auth_devices').execute();
}
