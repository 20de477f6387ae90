import { type Kysely, sql } from 'kysely';

/**
 * Why a post failed, in the Russian the uploader is shown: the socket event carries it at once, the
 * column keeps it for a page that missed the event and reads the post instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table posts add column failure_reason text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table posts drop column failure_reason`.execute(db);
}
