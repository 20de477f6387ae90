import { type Kysely, sql } from 'kysely';

/**
 * What the tagger named on a post (Russian, with counts) beside its tags, and whether its author rewrote the alt
 * text and tags (a later re-tagging then leaves them alone).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table posts add column ai_objects text[] not null default '{}'`.execute(db);
  await sql`alter table posts add column alt_edited boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table posts drop column alt_edited`.execute(db);
  await sql`alter table posts drop column ai_objects`.execute(db);
}
