import type { Post } from '@kadr/contract';
import { apiUrl, mediaRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FEED_CANDIDATES } from '../src/modules/media/cache/feed-cache.ts';
import { FEED_WINDOW, FOLLOWED_BOOST_SECONDS } from '../src/modules/media/feed-ranking.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

// The feed is ranked in JS from cached facts (ADR 0004). This checks it against the ranking as one SQL
// statement states it (docs/api/feed-ranking.md, the query the feed ran before the cache) on thousands of
// posts with ties, microsecond differences, hidden tags and followed authors — including a page deep enough
// to be ranked from an uncached window.

let t: TestApp;
const users: { id: number; token: string }[] = [];
// Enough that the finished ones (12 of 13) outnumber the cached window, so the deep page lies beyond it.
const POSTS = FEED_CANDIDATES + 800;

/** The documented ranking, as the database computes it: ids of one page (limit + 1, as the service asks). */
async function sqlFeed(viewer: number, offset: number, limit: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    select p.id from posts p
    where p.id in (select id from posts where status = 'done' order by created_at desc, id desc
                   limit ${offset + limit + FEED_WINDOW})
    order by (p.ai_tags && array(select b.tag from tag_blacklist b where b.user_id = ${viewer})),
      extract(epoch from p.created_at) + case when exists (select 1 from follows f
        where f.follower_id = ${viewer} and f.followee_id = p.user_id) then ${FOLLOWED_BOOST_SECONDS} else 0 end desc,
      p.id desc
    offset ${offset} limit ${limit}`.execute(t.db.kysely);
  return rows.map((r) => r.id);
}

async function apiFeed(token: string | null, offset: number, limit: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: apiUrl(mediaRoutes.feed, undefined, { offset, limit }),
    headers: token ? bearer(token) : {},
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { posts: Post[]; has_more: boolean };
}

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', JOBS_WORKER: 'false' });
  for (let i = 0; i < 5; i++) {
    const u = await registerUser(t.app);
    users.push({ id: u.user.id, token: u.access_token });
  }
  const authors = users.slice(0, 4).map((u) => u.id);
  // Slots 17 min apart, each used twice: even i share the exact instant (a tie → id desc), odd i differ by
  // 1–2 µs (order by time, not by id). Some posts unfinished; tags hidden by some viewers.
  await sql`
    insert into posts (user_id, caption, media_type, status, ai_tags, created_at)
    select (${sql.val(authors)}::int[])[1 + (i * 7) % 4], 'p' || i, 'photo',
      case when i % 13 = 0 then 'processing' else 'done' end,
      case when i % 5 = 0 then array['night'] when i % 7 = 0 then array['cats', 'sky'] else '{}'::text[] end,
      timestamptz '2025-01-01 00:00:00+00' + ((i * 7919) % ${POSTS / 2}) * interval '17 minutes'
        + (case when i % 2 = 0 then 0 else i % 3 end) * interval '1 microsecond'
    from generate_series(1, ${POSTS}) i`.execute(t.db.kysely);
  const [a, b, c, , viewer] = users as [
    (typeof users)[0],
    (typeof users)[0],
    (typeof users)[0],
    unknown,
    (typeof users)[0],
  ];
  await t.db.kysely
    .insertInto('follows')
    .values([
      { follower_id: viewer.id, followee_id: b.id },
      { follower_id: viewer.id, followee_id: c.id },
      { follower_id: a.id, followee_id: b.id },
    ])
    .execute();
  await t.db.kysely
    .insertInto('tag_blacklist')
    .values([
      { user_id: viewer.id, tag: 'night' },
      { user_id: a.id, tag: 'sky' },
    ])
    .execute();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('the feed ranked from the read cache equals the documented SQL ranking', () => {
  it.each([0, 15, 300, 2000, POSTS - 700])(
    'at offset %i for every kind of reader',
    async (offset) => {
      const readers: [number, string | null][] = [
        [users[4]!.id, users[4]!.token], // follows two authors, hides 'night'
        [users[0]!.id, users[0]!.token], // follows one author, hides 'sky'
        [users[3]!.id, users[3]!.token], // follows nobody, hides nothing
        [0, null], // guest
      ];
      for (const [viewer, token] of readers) {
        const expected = await sqlFeed(viewer, offset, 16);
        const page = await apiFeed(token, offset, 15);
        expect(page.posts.map((p) => p.id)).toEqual(expected.slice(0, 15));
        expect(page.has_more).toBe(expected.length > 15);
        const hiddenTag = viewer === users[4]!.id ? 'night' : viewer === users[0]!.id ? 'sky' : null;
        for (const p of page.posts)
          expect(p.is_filtered).toBe(hiddenTag !== null && p.ai_tags.includes(hiddenTag));
      }
    },
    60_000,
  );

  it('the deep page really is beyond the cached window: it is ranked from a read of its own', async () => {
    const cached = t.app.ctx.media.cache.newest;
    const get = vi.spyOn(cached, 'get');
    try {
      // A shallow page is ranked from the cached newest posts…
      await apiFeed(users[3]!.token, 0, 15);
      expect(get).toHaveBeenCalledTimes(1);
      const cachedWindow = await cached.get('newest', () => Promise.reject(new Error('cached above')));
      expect(cachedWindow).toHaveLength(FEED_CANDIDATES);
      // …the deep one needs more posts than the cache holds, so it does not touch it.
      get.mockClear();
      const offset = POSTS - 700;
      const page = await apiFeed(users[3]!.token, offset, 15);
      expect(get).not.toHaveBeenCalled();
      expect(page.posts.map((p) => p.id)).toEqual((await sqlFeed(users[3]!.id, offset, 15)).slice(0, 15));
      // And it holds posts the cached window lacks.
      const inWindow = new Set(cachedWindow.map((c) => c.id));
      expect(page.posts.some((p) => !inWindow.has(p.id))).toBe(true);
    } finally {
      get.mockRestore();
    }
  });
});
