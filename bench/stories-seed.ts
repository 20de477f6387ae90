import { type Kysely, sql } from 'kysely';
import type { Database } from '../apps/server/src/db/schema.ts';
import '../apps/server/src/modules/stories/tables.ts';

/**
 * For the stories-feed bench: `authors` users the viewer follows, each with `perAuthor` ready stories
 * from the last hours (inserted directly: 600 uploads through the pipeline would take minutes).
 */
export async function seedStories(db: Kysely<Database>, viewerId: number, authors: number, perAuthor = 3) {
  const users = await db
    .insertInto('users')
    .values(
      Array.from({ length: authors }, (_, i) => ({
        username: `story_author_${i}`,
        name: `Автор историй ${i}`,
        password_hash: 'bench-not-a-login',
        avatar_url: null,
        avatar_thumbnail_url: null,
        last_seen: null,
      })),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('follows')
    .values(users.map((u) => ({ follower_id: viewerId, followee_id: u.id })))
    .execute();
  const now = Date.now();
  await db
    .insertInto('stories')
    .values(
      users.flatMap((u, i) =>
        Array.from({ length: perAuthor }, (_, k) => ({
          user_id: u.id,
          media_type: 'photo' as const,
          status: 'ready' as const,
          caption: `История ${k + 1}`,
          file_url: `/files/stories/aa/bench-${i}-${k}.webp`,
          thumbnail_url: `/files/stories/aa/bench-${i}-${k}-t.webp`,
          duration: 15,
          ai_tags: ['nature'],
          created_at: new Date(now - (i * perAuthor + k) * 60_000),
        })),
      ),
    )
    .execute();
  await sql`analyze`.execute(db);
}
