import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, ErrorText, mediaRoutes, type Post, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { count, type Fixtures, filesUnder, MEDIA_TEST_ENV, makeFixtures, publish } from './media-helpers.ts';

let t: TestApp;
let fx: Fixtures;
let author: { token: string; username: string };
let other: { token: string; username: string };
let post: Post;

const api = (
  method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
  url: string,
  token?: string | null,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  fx = await makeFixtures();
  const a = await registerUser(t.app);
  const b = await registerUser(t.app);
  author = { token: a.access_token, username: a.user.username };
  other = { token: b.access_token, username: b.user.username };
  post = await publish(t.app, author.token, [
    { field: 'caption', data: 'Ночь #сон' },
    { field: 'files', filename: 'n.jpg', data: fx.night },
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('likes, saves, reposts', () => {
  it('a guest like or save changes nothing (401)', async () => {
    for (const route of [mediaRoutes.like, mediaRoutes.save, mediaRoutes.repost]) {
      const res = await api('POST', apiUrl(route, { id: post.id }), null);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(ErrorText.unauthorized);
    }
    const seen = (await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).json().post as Post;
    expect(seen.likes_count).toBe(0);
    expect(seen.reposts_count).toBe(0);
    expect(await count(t.db, 'post_likes')).toBe(0);
  });

  it('POST and DELETE are idempotent and flip the caller flags', async () => {
    expect((await api('POST', apiUrl(mediaRoutes.like, { id: post.id }), other.token)).json()).toEqual({
      is_liked: true,
      likes_count: 1,
    });
    expect((await api('POST', apiUrl(mediaRoutes.like, { id: post.id }), other.token)).json()).toEqual({
      is_liked: true,
      likes_count: 1,
    });
    expect((await api('POST', apiUrl(mediaRoutes.save, { id: post.id }), other.token)).json()).toEqual({
      is_saved: true,
    });
    expect((await api('POST', apiUrl(mediaRoutes.repost, { id: post.id }), other.token)).json()).toEqual({
      is_reposted: true,
      reposts_count: 1,
    });
    const seen = (await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), other.token)).json()
      .post as Post;
    expect([seen.is_liked, seen.is_saved, seen.is_reposted]).toEqual([true, true, true]);
    const liked = (
      await api('GET', apiUrl(mediaRoutes.liked, undefined, { offset: 0, limit: 9 }), other.token)
    ).json();
    expect(liked.posts.map((p: Post) => p.id)).toEqual([post.id]);
    expect((await api('GET', apiUrl(mediaRoutes.saved), other.token)).json().posts).toHaveLength(1);
    expect((await api('GET', apiUrl(mediaRoutes.reposted), other.token)).json().posts).toHaveLength(1);
    expect((await api('DELETE', apiUrl(mediaRoutes.unlike, { id: post.id }), other.token)).json()).toEqual({
      is_liked: false,
      likes_count: 0,
    });
    expect((await api('DELETE', apiUrl(mediaRoutes.unlike, { id: post.id }), other.token)).json()).toEqual({
      is_liked: false,
      likes_count: 0,
    });
    expect((await api('GET', apiUrl(mediaRoutes.liked), other.token)).json().posts).toEqual([]);
    await api('DELETE', apiUrl(mediaRoutes.unsave, { id: post.id }), other.token);
    await api('DELETE', apiUrl(mediaRoutes.unrepost, { id: post.id }), other.token);
  });

  it('50 concurrent likes from 50 users leave likes_count exactly 50', async () => {
    const users = await Promise.all(Array.from({ length: 50 }, () => registerUser(t.app)));
    const answers = await Promise.all(
      users.map((u) => api('POST', apiUrl(mediaRoutes.like, { id: post.id }), u.access_token)),
    );
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const seen = (await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).json().post as Post;
    expect(seen.likes_count).toBe(50);
    // And 50 concurrent unlikes (with repeats) bring it back to exactly 0.
    await Promise.all(
      [...users, ...users.slice(0, 10)].map((u) =>
        api('DELETE', apiUrl(mediaRoutes.unlike, { id: post.id }), u.access_token),
      ),
    );
    expect(
      ((await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).json().post as Post).likes_count,
    ).toBe(0);
  }, 120_000);
});

describe('comments', () => {
  it('are trimmed, 1–500, readable without a token, and counted', async () => {
    expect(
      (await api('POST', apiUrl(mediaRoutes.comment, { id: post.id }), null, { comment_text: 'x' }))
        .statusCode,
    ).toBe(401);
    const empty = await api('POST', apiUrl(mediaRoutes.comment, { id: post.id }), other.token, {
      comment_text: '   ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(ErrorText.commentEmpty);
    const long = await api('POST', apiUrl(mediaRoutes.comment, { id: post.id }), other.token, {
      comment_text: 'я'.repeat(501),
    });
    expect(long.statusCode).toBe(400);
    const ok = await api('POST', apiUrl(mediaRoutes.comment, { id: post.id }), other.token, {
      comment_text: '  Красиво!  ',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().comment_text).toBe('Красиво!');
    expect(ok.json().user.username).toBe(other.username);
    const list = (await api('GET', apiUrl(mediaRoutes.comments, { id: post.id }), null)).json();
    expect(list.comments.map((c: { comment_text: string }) => c.comment_text)).toEqual(['Красиво!']);
    expect(
      ((await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).json().post as Post)
        .comments_count,
    ).toBe(1);
  });
});

describe('blacklist and feed', () => {
  it('needs a token (401 → the client shows nothing hidden)', async () => {
    expect((await api('GET', apiUrl(mediaRoutes.blacklist), null)).statusCode).toBe(401);
  });

  it('hidden tags mark posts filtered and rank them after all others', async () => {
    const bright = await publish(t.app, author.token, [
      { field: 'files', filename: 'b.jpg', data: fx.bright },
    ]);
    expect(post.ai_tags).toContain('night');
    const add = await api('POST', apiUrl(mediaRoutes.blacklistAdd), other.token, { tag: 'night' });
    expect(add.json()).toEqual({ blacklist: [{ tag: 'night' }] });
    expect(
      (await api('POST', apiUrl(mediaRoutes.blacklistAdd), other.token, { tag: 'nonsense' })).statusCode,
    ).toBe(400);
    const feed = (
      await api('GET', apiUrl(mediaRoutes.feed, undefined, { offset: 0, limit: 15 }), other.token)
    ).json();
    expect(feed.posts.map((p: Post) => [p.id, p.is_filtered])).toEqual([
      [bright.id, false],
      [post.id, true],
    ]);
    expect(feed.has_more).toBe(false);
    // A guest sees nothing filtered, newest first.
    const guest = (await api('GET', apiUrl(mediaRoutes.feed), null)).json();
    expect(guest.posts.map((p: Post) => p.is_filtered)).toEqual([false, false]);
    const page = (
      await api('GET', apiUrl(mediaRoutes.feed, undefined, { offset: 0, limit: 1 }), null)
    ).json();
    expect(page.has_more).toBe(true);
    const removed = await api('DELETE', apiUrl(mediaRoutes.blacklistRemove, { tag: 'night' }), other.token);
    expect(removed.json()).toEqual({ blacklist: [] });
    const user = (
      await api('GET', apiUrl(mediaRoutes.userPosts, { username: author.username }, { limit: 50 }), null)
    ).json();
    expect(user.posts).toHaveLength(2);
  }, 60_000);
});

describe('sleep flag and delete', () => {
  it('only the author sets or clears for_sleep', async () => {
    expect(post.ai_tags).toContain('for_sleep');
    const denied = await api('PATCH', apiUrl(mediaRoutes.update, { id: post.id }), other.token, {
      for_sleep: false,
    });
    expect(denied.statusCode).toBe(403);
    const cleared = await api('PATCH', apiUrl(mediaRoutes.update, { id: post.id }), author.token, {
      for_sleep: false,
    });
    expect(cleared.json().post.ai_tags).not.toContain('for_sleep');
    const set = await api('PATCH', apiUrl(mediaRoutes.update, { id: post.id }), author.token, {
      for_sleep: true,
    });
    expect(set.json().post.ai_tags).toContain('for_sleep');
  });

  it("another user's delete is 403 with an error text and removes nothing; the author's removes files", async () => {
    const before = filesUnder(path.join(t.dataDir, 'media'));
    expect(before.length).toBeGreaterThan(0);
    const denied = await api('DELETE', apiUrl(mediaRoutes.remove, { id: post.id }), other.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe(ErrorText.postDeleteForbidden);
    expect((await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).statusCode).toBe(200);
    expect(filesUnder(path.join(t.dataDir, 'media'))).toEqual(before);

    const profile = () => api('GET', apiUrl(profileRoutes.get, { username: author.username }), author.token);
    expect((await profile()).json().posts_count).toBe(2);
    const urls = post.files.flatMap((f) => [f.file_url, f.thumbnail_url!, f.screen_url!]);
    for (const url of urls)
      expect(fs.existsSync(path.join(t.dataDir, 'media', url.replace('/files/', '')))).toBe(true);
    const ok = await api('DELETE', apiUrl(mediaRoutes.remove, { id: post.id }), author.token);
    expect(ok.statusCode).toBe(200);
    expect((await api('GET', apiUrl(mediaRoutes.post, { id: post.id }), null)).statusCode).toBe(404);
    for (const url of urls)
      expect(fs.existsSync(path.join(t.dataDir, 'media', url.replace('/files/', '')))).toBe(false);
    expect((await profile()).json().posts_count).toBe(1);
  });
});
