import { randomBytes } from 'node:crypto';
import type { Post } from '@kadr/contract';
import { apiUrl, mediaRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp, testDatabase } from './helpers.ts';
import { type Fixtures, MEDIA_TEST_ENV, makeFixtures, multipart, publish } from './media-helpers.ts';
import { REDIS_URL, redisReachable } from './sockets.ts';

// Two app instances on one database sharing Redis, like two server processes behind a balancer. Every
// read below is made on node two after node two cached the old state; every write on node one. The
// cache TTL is 10 minutes, so only the change notices over the bus can make node two see the writes.

const hasRedis = await redisReachable('media feed cache suite');

type Session = { id: number; token: string; username: string };

describe.runIf(hasRedis)('the media read cache across two nodes sharing REDIS_URL', () => {
  let shared: Awaited<ReturnType<typeof testDatabase>>;
  let one: TestApp;
  let two: TestApp;
  let fx: Fixtures;
  let author: Session;
  let friend: Session;
  let viewer: Session;
  let older: Post; // by author, night (hidden by tag later)
  let newer: Post; // by friend, bright

  const settle = () => new Promise((r) => setTimeout(r, 100));
  const call = (
    node: TestApp,
    method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
    url: string,
    token?: string,
    payload?: object,
  ) =>
    node.app.inject({
      method,
      url,
      headers: token ? bearer(token) : {},
      ...(payload ? { payload } : {}),
    });
  const feedOnTwo = async (token?: string) => {
    const res = await call(two, 'GET', apiUrl(mediaRoutes.feed, undefined, { offset: 0, limit: 15 }), token);
    expect(res.statusCode).toBe(200);
    return (res.json() as { posts: Post[] }).posts;
  };
  const postOnTwo = async (id: number, token?: string) => {
    const res = await call(two, 'GET', apiUrl(mediaRoutes.post, { id }), token);
    return res.statusCode === 200 ? (res.json() as { post: Post }).post : null;
  };

  beforeAll(async () => {
    shared = await testDatabase();
    const env = {
      ...MEDIA_TEST_ENV,
      REDIS_URL,
      REDIS_PREFIX: `kadr_test_${randomBytes(4).toString('hex')}`,
      FEED_CACHE_TTL_MS: '600000',
      PROFILE_CACHE_TTL_MS: '600000',
      TOKEN_CACHE_TTL_MS: '60000',
    };
    one = await createTestApp(env, { db: shared.db });
    two = await createTestApp({ ...env, JOBS_WORKER: 'false' }, { db: shared.db });
    fx = await makeFixtures();
    const session = async () => {
      const s = await registerUser(one.app);
      return { id: s.user.id, token: s.access_token, username: s.user.username };
    };
    author = await session();
    friend = await session();
    viewer = await session();
    older = await publish(one.app, author.token, [{ field: 'files', filename: 'n.jpg', data: fx.night }]);
    newer = await publish(one.app, friend.token, [{ field: 'files', filename: 'b.jpg', data: fx.bright }]);
    expect(older.ai_tags).toContain('night');
    expect(newer.ai_tags).not.toContain('night');
  }, 180_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.drop();
  });

  it('a like, a save and a repost on one node show at once on the other, counters exact', async () => {
    const before = (await feedOnTwo(viewer.token)).find((p) => p.id === newer.id)!;
    expect([before.likes_count, before.is_liked, before.is_saved]).toEqual([0, false, false]);
    expect((await postOnTwo(newer.id))!.likes_count).toBe(0);
    await call(one, 'POST', apiUrl(mediaRoutes.like, { id: newer.id }), viewer.token);
    await call(one, 'POST', apiUrl(mediaRoutes.save, { id: newer.id }), viewer.token);
    await call(one, 'POST', apiUrl(mediaRoutes.repost, { id: newer.id }), author.token);
    await settle();
    const after = (await feedOnTwo(viewer.token)).find((p) => p.id === newer.id)!;
    expect(after).toMatchObject({
      likes_count: 1,
      reposts_count: 1,
      is_liked: true,
      is_saved: true,
      is_reposted: false,
    });
    expect((await postOnTwo(newer.id))!.likes_count).toBe(1); // guest copy too
    const liked = (await call(two, 'GET', apiUrl(mediaRoutes.liked), viewer.token)).json() as {
      posts: Post[];
    };
    expect(liked.posts.map((p) => [p.id, p.is_liked])).toEqual([[newer.id, true]]);
    await call(one, 'DELETE', apiUrl(mediaRoutes.unlike, { id: newer.id }), viewer.token);
    await settle();
    expect((await postOnTwo(newer.id, viewer.token))!).toMatchObject({ likes_count: 0, is_liked: false });
  });

  it('a comment on one node raises comments_count on the other', async () => {
    expect((await postOnTwo(older.id))!.comments_count).toBe(0);
    const res = await call(one, 'POST', apiUrl(mediaRoutes.comment, { id: older.id }), friend.token, {
      comment_text: 'Ого',
    });
    expect(res.statusCode).toBe(201);
    await settle();
    expect((await postOnTwo(older.id))!.comments_count).toBe(1);
    expect((await feedOnTwo()).find((p) => p.id === older.id)!.comments_count).toBe(1);
  });

  it('a blacklist change on one node re-ranks and marks the feed on the other', async () => {
    expect((await feedOnTwo(viewer.token)).map((p) => [p.id, p.is_filtered])).toEqual([
      [newer.id, false],
      [older.id, false],
    ]);
    const tag = newer.ai_tags.find((t) => !older.ai_tags.includes(t))!;
    expect(tag).toBeDefined();
    expect(
      (await call(one, 'POST', apiUrl(mediaRoutes.blacklistAdd), viewer.token, { tag })).statusCode,
    ).toBe(200);
    await settle();
    const hidden = await feedOnTwo(viewer.token);
    expect(hidden.map((p) => [p.id, p.is_filtered])).toEqual([
      [older.id, false],
      [newer.id, true],
    ]);
    await call(one, 'DELETE', apiUrl(mediaRoutes.blacklistRemove, { tag }), viewer.token);
    await settle();
    expect((await feedOnTwo(viewer.token)).map((p) => p.is_filtered)).toEqual([false, false]);
  });

  it('a follow change on one node moves the followed author up on the other, and back', async () => {
    expect((await feedOnTwo(viewer.token)).map((p) => p.id)).toEqual([newer.id, older.id]);
    await call(one, 'POST', apiUrl(profileRoutes.follow, { username: author.username }), viewer.token);
    await settle();
    expect((await feedOnTwo(viewer.token)).map((p) => p.id)).toEqual([older.id, newer.id]);
    await call(one, 'DELETE', apiUrl(profileRoutes.unfollow, { username: author.username }), viewer.token);
    await settle();
    expect((await feedOnTwo(viewer.token)).map((p) => p.id)).toEqual([newer.id, older.id]);
  });

  it("the author's new name and avatar on one node show on their posts on the other", async () => {
    expect((await postOnTwo(older.id))!.user.avatar_url).toBeNull();
    await call(one, 'PATCH', apiUrl(profileRoutes.update), author.token, { name: 'Новое Имя' });
    const body = multipart([
      { field: 'file', filename: 'a.jpg', contentType: 'image/jpeg', data: fx.bright },
    ]);
    const avatar = await one.app.inject({
      method: 'POST',
      url: apiUrl(profileRoutes.avatar),
      headers: { ...bearer(author.token), ...body.headers },
      payload: body.payload,
    });
    expect(avatar.statusCode).toBe(200);
    await settle();
    const seen = await postOnTwo(older.id);
    expect(seen!.user.name).toBe('Новое Имя');
    expect(seen!.user.avatar_url).toBe(avatar.json().avatar_url);
    expect(seen!.user.avatar_thumbnail_url).toBe(avatar.json().avatar_thumbnail_url);
  });

  it('a sleep flag change on one node changes the tags on the other', async () => {
    expect((await postOnTwo(newer.id))!.ai_tags).not.toContain('for_sleep');
    await call(one, 'PATCH', apiUrl(mediaRoutes.update, { id: newer.id }), friend.token, { for_sleep: true });
    await settle();
    expect((await postOnTwo(newer.id))!.ai_tags).toContain('for_sleep');
    expect((await feedOnTwo()).find((p) => p.id === newer.id)!.ai_tags).toContain('for_sleep');
  });

  it('a new post finished on one node is in the feed on the other; deleted, it is gone', async () => {
    expect((await feedOnTwo()).map((p) => p.id)).toEqual([newer.id, older.id]);
    const fresh = await publish(one.app, friend.token, [
      { field: 'files', filename: 'p.jpg', data: fx.person },
    ]);
    await settle();
    expect((await feedOnTwo()).map((p) => p.id)).toEqual([fresh.id, newer.id, older.id]);
    expect((await postOnTwo(fresh.id))!.status).toBe('done');
    expect(
      (await call(one, 'DELETE', apiUrl(mediaRoutes.remove, { id: fresh.id }), friend.token)).statusCode,
    ).toBe(200);
    await settle();
    expect((await feedOnTwo()).map((p) => p.id)).toEqual([newer.id, older.id]);
    expect(await postOnTwo(fresh.id)).toBeNull();
  }, 60_000);
});
