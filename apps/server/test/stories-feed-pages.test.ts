import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { StoryGroup, UrlQuery } from '@kadr/contract';
import { apiUrl, mediaRoutes, moderationRoutes, profileRoutes, settingsRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoriesServices } from '../src/modules/stories/module.ts';
import { bearer, createTestApp, registerUser, type TestApp, testDatabase } from './helpers.ts';
import { REDIS_URL, redisReachable } from './sockets.ts';

/**
 * The per-viewer cache of the stories feed's first page. Every read is made with the page warm; the TTL is
 * 10 minutes, so only the service's own invalidations (and the other caches' notices it listens to) can
 * make a read show a change. Each step also compares with the uncached SQL answer.
 */

interface U {
  token: string;
  id: number;
  username: string;
}

const nodeApi = (t: TestApp) => {
  const stories = () => t.app.ctx.modules.stories as StoriesServices;
  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  return {
    stories,
    call,
    async user(name?: string): Promise<U> {
      const s = await registerUser(t.app, undefined, name);
      return { token: s.access_token, id: s.user.id, username: s.user.username };
    },
    async feed(who: U, query?: UrlQuery): Promise<StoryGroup[]> {
      const res = await call('GET', apiUrl(storiesRoutes.feed, undefined, query), who.token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      return res.json().stories_groups;
    },
    async follow(who: U, whom: U, on = true) {
      const res = await call(
        on ? 'POST' : 'DELETE',
        apiUrl(on ? profileRoutes.follow : profileRoutes.unfollow, { username: whom.username }),
        who.token,
      );
      expect(res.statusCode).toBe(200);
    },
  };
};

let seq = 0;
/** A ready story written straight to the table, `minutesAgo` by the stories clock (processing is tested elsewhere). */
async function insertStory(t: TestApp, owner: U, minutesAgo: number): Promise<number> {
  seq++;
  const clock = (t.app.ctx.modules.stories as StoriesServices).clock;
  const row = await t.db.kysely
    .insertInto('stories')
    .values({
      user_id: owner.id,
      media_type: 'photo',
      status: 'ready',
      caption: `p${seq}`,
      file_url: `/media/stories/p${seq}.jpg`,
      thumbnail_url: `/media/stories/p${seq}_t.jpg`,
      duration: 15,
      ai_tags: seq % 2 ? ['night'] : [],
      created_at: new Date(clock.now().getTime() - minutesAgo * 60_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const ids = (groups: StoryGroup[]) => groups.map((g) => g.user.id);
const group = (groups: StoryGroup[], who: U) => groups.find((g) => g.user.id === who.id);

describe('the stories feed first page, cached per viewer', () => {
  let t: TestApp;
  let n: ReturnType<typeof nodeApi>;
  let viewer: U;
  let other: U;
  let anna: U;
  let boris: U;
  let a1: number;

  /** The page (warm) and what SQL says, for each of `who`. */
  async function agrees(...who: U[]) {
    for (const u of who) expect(await n.feed(u)).toEqual(await n.stories().service.feedUncached(u.id, 20));
  }

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', FEED_CACHE_TTL_MS: '600000' });
    n = nodeApi(t);
    [viewer, other, anna, boris] = [await n.user(), await n.user(), await n.user('Анна'), await n.user()];
    for (const who of [viewer, other]) {
      await n.follow(who, anna);
      await n.follow(who, boris);
    }
  }, 180_000);
  afterAll(() => t?.close());

  it('serves a repeat read from the page, not from the stories behind it', async () => {
    a1 = await insertStory(t, anna, 30);
    await n.stories().cache.changed({ authors: [anna.id] }); // written around the app: tell the cache
    expect(ids(await n.feed(viewer))).toEqual([anna.id]);
    // A story slipped into the table, with only the per-author layer told: the built page still answers.
    const hidden = await insertStory(t, boris, 5);
    n.stories().cache.byAuthor.invalidate([boris.id]);
    expect(ids(await n.feed(viewer))).toEqual([anna.id]);
    // Another page size is built per request and sees it.
    expect(ids(await n.feed(viewer, { limit: 19 }))).toEqual([boris.id, anna.id]);
    // Once the service hears the story is ready, the next read has it first.
    await n.stories().service.finished(hidden, boris.id, 'ready');
    expect(ids(await n.feed(viewer))).toEqual([boris.id, anna.id]);
    await agrees(viewer, other, anna, boris);
  });

  it('a view flips the viewer’s has_unviewed and the count every follower sees', async () => {
    await agrees(viewer, other);
    expect(group(await n.feed(viewer), anna)?.has_unviewed).toBe(true);
    expect((await n.call('POST', apiUrl(storiesRoutes.view, { id: a1 }), viewer.token)).statusCode).toBe(200);
    const mine = group(await n.feed(viewer), anna);
    expect(mine?.has_unviewed).toBe(false);
    expect(mine?.stories[0]?.is_viewed).toBe(true);
    const theirs = group(await n.feed(other), anna);
    expect(theirs?.has_unviewed).toBe(true);
    expect(theirs?.stories[0]?.views_count).toBe(1);
    await agrees(viewer, other, anna);
  });

  it('a like shows for the liker and its count for every follower', async () => {
    await agrees(viewer, other);
    expect((await n.call('POST', apiUrl(storiesRoutes.like, { id: a1 }), viewer.token)).statusCode).toBe(200);
    expect(group(await n.feed(viewer), anna)?.stories[0]).toMatchObject({ is_liked: true, likes_count: 1 });
    expect(group(await n.feed(other), anna)?.stories[0]).toMatchObject({ is_liked: false, likes_count: 1 });
    await agrees(viewer, other, anna);
  });

  it('a new story, a deleted one and the expiry job move the page at once', async () => {
    await agrees(viewer, other);
    const a2 = await insertStory(t, anna, 1);
    await n.stories().service.finished(a2, anna.id, 'ready');
    expect(ids(await n.feed(viewer))).toEqual([anna.id, boris.id]);
    expect(group(await n.feed(other), anna)?.stories.map((s) => s.id)).toEqual([a1, a2]);
    expect((await n.call('DELETE', apiUrl(storiesRoutes.remove, { id: a2 }), anna.token)).statusCode).toBe(
      200,
    );
    expect(group(await n.feed(other), anna)?.stories.map((s) => s.id)).toEqual([a1]);
    expect(ids(await n.feed(viewer))).toEqual([boris.id, anna.id]);
    await agrees(viewer, other, anna);
  });

  it('unfollow removes the author, follow brings them back', async () => {
    await agrees(viewer);
    await n.follow(viewer, anna, false);
    expect(ids(await n.feed(viewer))).toEqual([boris.id]);
    await agrees(viewer);
    await n.follow(viewer, anna);
    expect(ids(await n.feed(viewer))).toEqual([boris.id, anna.id]);
    await agrees(viewer);
  });

  it('a block hides the blocker’s stories from the blocked viewer only and ends the follow; after unblocking a new follow shows them again', async () => {
    await agrees(viewer, other);
    expect(
      (await n.call('POST', apiUrl(settingsRoutes.block, { username: viewer.username }), anna.token))
        .statusCode,
    ).toBe(200);
    expect(ids(await n.feed(viewer))).toEqual([boris.id]);
    expect(ids(await n.feed(other))).toEqual([boris.id, anna.id]);
    expect(
      (await n.call('DELETE', apiUrl(settingsRoutes.unblock, { username: viewer.username }), anna.token))
        .statusCode,
    ).toBe(200);
    // Unblocking restores no follow: the viewer follows Anna again to see her stories.
    expect(ids(await n.feed(viewer))).toEqual([boris.id]);
    await n.follow(viewer, anna);
    expect(ids(await n.feed(viewer))).toEqual([boris.id, anna.id]);
    await agrees(viewer, other);
  });

  it('a hidden tag, a report and a new name reach the cached page', async () => {
    await agrees(viewer, other);
    const tagged = group(await n.feed(viewer), anna)?.stories[0];
    expect(tagged?.ai_tags).toContain('night');
    expect(tagged?.is_filtered).toBe(false);
    expect(
      (await n.call('POST', apiUrl(mediaRoutes.blacklistAdd), viewer.token, { tag: 'night' })).statusCode,
    ).toBe(200);
    expect(group(await n.feed(viewer), anna)?.stories[0]?.is_filtered).toBe(true);
    expect(group(await n.feed(other), anna)?.stories[0]?.is_filtered).toBe(false);

    expect(
      (await n.call('PATCH', apiUrl(profileRoutes.update), anna.token, { name: 'Анна Каренина' })).statusCode,
    ).toBe(200);
    expect(group(await n.feed(other), anna)?.user.name).toBe('Анна Каренина');

    expect(
      (
        await n.call('POST', apiUrl(moderationRoutes.report), viewer.token, {
          kind: 'story',
          target_id: a1,
          reason: 'spam',
        })
      ).statusCode,
    ).toBe(200);
    expect(ids(await n.feed(viewer))).toEqual([boris.id]);
    expect(ids(await n.feed(other))).toEqual([boris.id, anna.id]);
    await agrees(viewer, other);
  });

  it('a browser gets the cached page compressed once, as @fastify/compress would send it', async () => {
    const read = async (accept: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: apiUrl(storiesRoutes.feed),
        headers: { ...bearer(viewer.token), 'accept-encoding': accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return res;
    };
    // Enough stories for the page to pass the 1 KB threshold.
    for (let i = 0; i < 4; i++) {
      const id = await insertStory(t, boris, 3 - i / 2);
      await n.stories().service.finished(id, boris.id, 'ready');
    }
    const plain = await n.call('GET', apiUrl(storiesRoutes.feed), viewer.token);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = plain.rawPayload;
    expect(json.length).toBeGreaterThan(1024);
    const br = await read('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(json)).toBe(true);
    const gz = await read('br;q=0, gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).equals(json)).toBe(true);
    expect((await read('identity')).rawPayload.equals(json)).toBe(true);
    // A change drops the compressed copies with the page.
    expect((await n.call('POST', apiUrl(storiesRoutes.like, { id: a1 }), other.token)).statusCode).toBe(200);
    const after = await read('br');
    expect(JSON.parse(zlib.brotliDecompressSync(after.rawPayload).toString())).toEqual({
      stories_groups: await n.stories().service.feedUncached(viewer.id, 20),
    });
  });

  it('a page ends when its earliest story expires, with no write in between', async () => {
    const old = await insertStory(t, boris, 24 * 60 - 2); // expires in 2 minutes
    await n.stories().cache.changed({ authors: [boris.id] });
    expect(group(await n.feed(other), boris)?.stories.map((s) => s.id)).toContain(old);
    const clock = n.stories().clock;
    const real = clock.now;
    clock.now = () => new Date(real().getTime() + 3 * 60_000);
    try {
      expect(group(await n.feed(other), boris)?.stories.map((s) => s.id)).not.toContain(old);
      await agrees(other);
    } finally {
      clock.now = real;
    }
  });
});

const hasRedis = await redisReachable('stories feed page cache suite');

describe.runIf(hasRedis)('the stories first page across two nodes sharing REDIS_URL', () => {
  let shared: Awaited<ReturnType<typeof testDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let on1: ReturnType<typeof nodeApi>;
  let on2: ReturnType<typeof nodeApi>;
  let viewer: U;
  let anna: U;
  let boris: U;
  const settle = () => new Promise((r) => setTimeout(r, 150));

  beforeAll(async () => {
    shared = await testDatabase();
    const env = {
      REDIS_URL,
      REDIS_PREFIX: `kadr_test_${randomBytes(4).toString('hex')}`,
      AUTH_RATE_LIMIT_PER_IP: '1000',
      FEED_CACHE_TTL_MS: '600000',
      PROFILE_CACHE_TTL_MS: '600000',
      TOKEN_CACHE_TTL_MS: '60000',
    };
    one = await createTestApp(env, { db: shared.db });
    two = await createTestApp({ ...env, JOBS_WORKER: 'false' }, { db: shared.db });
    on1 = nodeApi(one);
    on2 = nodeApi(two);
    [viewer, anna, boris] = [await on1.user(), await on1.user(), await on1.user()];
    await on1.follow(viewer, anna);
    await on1.follow(viewer, boris);
  }, 180_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.drop();
  });

  it('a new story, a view, a block and an unfollow on one node show in the next read on the other', async () => {
    expect(await on2.feed(viewer)).toEqual([]);
    const a1 = await insertStory(one, anna, 10);
    await on1.stories().service.finished(a1, anna.id, 'ready');
    await settle();
    expect(ids(await on2.feed(viewer))).toEqual([anna.id]);
    expect(group(await on2.feed(viewer), anna)?.has_unviewed).toBe(true);

    expect((await on1.call('POST', apiUrl(storiesRoutes.view, { id: a1 }), viewer.token)).statusCode).toBe(
      200,
    );
    await settle();
    expect(group(await on2.feed(viewer), anna)?.has_unviewed).toBe(false);
    expect(group(await on2.feed(anna), anna)?.stories[0]?.views_count).toBe(1);

    const b1 = await insertStory(one, boris, 5);
    await on1.stories().service.finished(b1, boris.id, 'ready');
    await settle();
    expect(ids(await on2.feed(viewer))).toEqual([boris.id, anna.id]);

    expect(
      (await on1.call('POST', apiUrl(settingsRoutes.block, { username: viewer.username }), boris.token))
        .statusCode,
    ).toBe(200);
    await settle();
    expect(ids(await on2.feed(viewer))).toEqual([anna.id]);

    await on1.follow(viewer, anna, false);
    await settle();
    expect(await on2.feed(viewer)).toEqual([]);
    expect(await on2.feed(viewer)).toEqual(await on2.stories().service.feedUncached(viewer.id, 20));
  });
});
