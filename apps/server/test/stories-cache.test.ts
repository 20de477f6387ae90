import type { StoryGroup } from '@kadr/contract';
import { apiUrl, mediaRoutes, moderationRoutes, profileRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryBus } from '../src/lib/bus.ts';
import { storiesCache } from '../src/modules/stories/cache.ts';
import type { StoriesServices } from '../src/modules/stories/module.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

/**
 * The stories feed read cache (ADR 0004's style): every answer equals the uncached SQL answer after each
 * kind of write, with the cache warm before the write; and an invalidation on one node reaches another.
 */
let t: TestApp;
const stories = () => t.app.ctx.modules.stories as StoriesServices;

interface U {
  token: string;
  id: number;
  username: string;
}
let a: U;
let b: U;
let c: U;

async function user(): Promise<U> {
  const s = await registerUser(t.app);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

const call = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function feed(who: U): Promise<StoryGroup[]> {
  const res = await call('GET', apiUrl(storiesRoutes.feed, undefined, { limit: 20 }), who.token);
  expect(res.statusCode).toBe(200);
  return res.json().stories_groups;
}

/** The cached answer (through the route) equals the SQL answer, for each viewer. */
async function agrees(...who: U[]) {
  for (const u of who) expect(await feed(u)).toEqual(await stories().service.feedUncached(u.id, 20));
}

let seq = 0;
/** A ready story written straight to the table (processing is covered by stories-api.test.ts). */
async function story(owner: U, minutesAgo: number, tags: string[] = []): Promise<number> {
  seq++;
  const row = await t.db.kysely
    .insertInto('stories')
    .values({
      user_id: owner.id,
      media_type: 'photo',
      status: 'ready',
      caption: `s${seq}`,
      file_url: `/media/stories/s${seq}.jpg`,
      thumbnail_url: `/media/stories/s${seq}_t.jpg`,
      duration: 15,
      ai_tags: tags,
      created_at: new Date(stories().clock.now().getTime() - minutesAgo * 60_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  [a, b, c] = [await user(), await user(), await user()];
  for (const [who, whom] of [
    [b, a],
    [b, c],
    [a, b],
  ] as const)
    expect(
      (await call('POST', apiUrl(profileRoutes.follow, { username: whom.username }), who.token)).statusCode,
    ).toBe(200);
}, 180_000);
afterAll(() => t?.close());

describe('stories feed read cache', () => {
  it('answers as the SQL does after views, likes, reports, deletes, new stories and expiry', async () => {
    const a1 = await story(a, 30);
    const a2 = await story(a, 20, ['night']);
    const c1 = await story(c, 10);
    await stories().cache.changed({ authors: [a.id, c.id] }); // written around the app: tell the cache
    await agrees(a, b, c);
    const before = await feed(b);
    expect(before.map((g) => g.user.id)).toEqual([c.id, a.id]);
    expect(before[1]?.has_unviewed).toBe(true);

    // A view: the count for the owner, the mark for the viewer.
    expect((await call('POST', apiUrl(storiesRoutes.view, { id: a1 }), b.token)).json().views_count).toBe(1);
    await agrees(a, b);
    expect((await feed(b))[1]?.stories.map((s) => s.is_viewed)).toEqual([true, false]);
    expect((await feed(a)).find((g) => g.user.id === a.id)?.stories[0]?.views_count).toBe(1);

    // Like and unlike.
    expect((await call('POST', apiUrl(storiesRoutes.like, { id: a2 }), b.token)).json().likes_count).toBe(1);
    await agrees(a, b);
    expect((await feed(b))[1]?.stories[1]).toMatchObject({ is_liked: true, likes_count: 1 });
    await call('DELETE', apiUrl(storiesRoutes.unlike, { id: a2 }), b.token);
    await agrees(a, b);
    expect((await feed(b))[1]?.stories[1]).toMatchObject({ is_liked: false, likes_count: 0 });

    // A hidden tag marks the story filtered for that viewer only.
    expect((await call('POST', apiUrl(mediaRoutes.blacklistAdd), b.token, { tag: 'night' })).statusCode).toBe(
      200,
    );
    await agrees(a, b);

    // A report hides it from the reporter.
    expect(
      (
        await call('POST', apiUrl(moderationRoutes.report), b.token, {
          kind: 'story',
          target_id: c1,
          reason: 'spam',
        })
      ).statusCode,
    ).toBe(200);
    await agrees(b, c);
    expect((await feed(b)).map((g) => g.user.id)).toEqual([a.id]);

    // A new story through the app's own finish path moves its author first.
    const a3 = await story(a, 1);
    await stories().service.finished(a3, a.id, 'ready');
    await agrees(a, b);
    expect((await feed(b))[0]?.stories.map((s) => s.id)).toEqual([a1, a2, a3]);

    // The owner deletes one.
    expect((await call('DELETE', apiUrl(storiesRoutes.remove, { id: a2 }), a.token)).statusCode).toBe(200);
    await agrees(a, b);

    // Unfollowing drops the author from the follower's feed.
    await call('DELETE', apiUrl(profileRoutes.unfollow, { username: a.username }), b.token);
    await agrees(b);
    expect(await feed(b)).toEqual([]);
    await call('POST', apiUrl(profileRoutes.follow, { username: a.username }), b.token);

    // Past 24 h nothing is shown, before the expiry job runs (the cut is applied on every read).
    const clock = stories().clock;
    const real = clock.now;
    clock.now = () => new Date(real().getTime() + 24 * 3600_000);
    try {
      expect(await feed(b)).toEqual([]);
      await agrees(a, b, c);
    } finally {
      clock.now = real;
    }
  });

  it('an invalidation on one node drops the entry on another (one bus)', async () => {
    const bus = memoryBus();
    const one = await storiesCache(bus, 60_000);
    const two = await storiesCache(bus, 60_000);
    let loads = 0;
    const load = async (keys: number[]) => {
      loads++;
      return new Map(keys.map((k) => [k, []]));
    };
    await one.byAuthor.getMany([1], load);
    await two.byAuthor.getMany([1], load);
    await two.marks.get(5, async () => ({ viewed: new Set(), liked: new Set(), reported: new Set() }));
    expect(two.byAuthor.peek(1)).toEqual([]);
    await one.changed({ authors: [1], viewers: [5] });
    expect(one.byAuthor.peek(1)).toBeUndefined();
    expect(two.byAuthor.peek(1)).toBeUndefined();
    expect(two.marks.peek(5)).toBeUndefined();
    await two.byAuthor.getMany([1], load);
    expect(loads).toBe(3);
  });
});
