import { type Kysely, sql } from 'kysely';

/**
 * A photo's screen variant (fit inside 720×1280, processing/image-ops.ts): what the feed shows, the feed file
 * being fetched only for a full-size view. Null for videos and for photos processed before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table post_files add column screen_url text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table post_files drop column screen_url`.execute(db);
}
