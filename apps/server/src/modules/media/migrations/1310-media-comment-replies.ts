import { type Kysely, sql } from 'kysely';

/**
 * Replies to comments: a comment may answer another comment of the same post. Deleting the answered
 * comment keeps the reply (it just stops pointing anywhere).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table post_comments add column parent_id integer references post_comments(id) on delete set null`.execute(
    db,
  );
  await sql`create index post_comments_parent_idx on post_comments (parent_id) where parent_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists post_comments_parent_idx`.execute(db);
  await sql`alter table post_comments drop column parent_id`.execute(db);
}
