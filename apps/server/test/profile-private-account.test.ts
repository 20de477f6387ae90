import type { FeedResponse, FollowRequestsResponse, Profile, SearchResponse } from '@kadr/contract';
import { apiUrl, ErrorCode, mediaRoutes, profileRoutes, settingsRoutes } from '@kadr/contract';
import { searchRoutes } from '@kadr/contract/search/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { readyPhotoPost } from './media-helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/** «Закрытый аккаунт»: following is a request the owner answers; the work is for followers only. */
let t: TestApp;
let url: string;
const open: ClientSocket[] = [];
beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', RATE_LIMITS: 'profile.follow=1000/1h' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t.close();
});

interface U {
  token: string;
  id: number;
  username: string;
}

async function user(name: string): Promise<U> {
  const s = await registerUser(t.app, undefined, name);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

const call = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, who: U, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(who.token), ...(payload ? { payload } : {}) });

async function ok<T>(method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, who: U, payload?: object) {
  const res = await call(method, url, who, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

const makePrivate = (who: U, on = true) =>
  ok('PATCH', apiUrl(settingsRoutes.update), who, { privacy: { private_account: on } });

const run = Math.random().toString(36).slice(2, 7);

function publish(who: U, caption: string): Promise<number> {
  return readyPhotoPost(t.app, who.id, caption);
}

const profileOf = (of: U, who: U) =>
  ok<Profile>('GET', apiUrl(profileRoutes.get, { username: of.username }), who);

describe('a private account', () => {
  let owner: U;
  let fan: U;
  let stranger: U;
  let postId = 0;

  beforeAll(async () => {
    owner = await user('Закрытая');
    fan = await user('Подписчица');
    stranger = await user('Прохожий');
    postId = await publish(owner, `закрытыйкадр${run} на закате`);
    const settings = await makePrivate(owner);
    expect(settings).toMatchObject({ privacy: { private_account: true } });
  });

  it('following becomes a request the owner sees; the profile says so', async () => {
    const follow = await ok<{ is_following: boolean; is_requested: boolean; followers_count: number }>(
      'POST',
      apiUrl(profileRoutes.follow, { username: owner.username }),
      fan,
    );
    expect(follow).toEqual({ is_following: false, is_requested: true, followers_count: 0 });
    expect(await profileOf(owner, fan)).toMatchObject({
      is_private: true,
      is_requested: true,
      is_following: false,
      can_see_content: false,
      followers_count: 0,
    });
    const requests = await ok<FollowRequestsResponse>('GET', apiUrl(profileRoutes.followRequests), owner);
    expect(requests.users.map((u) => u.id)).toEqual([fan.id]);
    // Nobody else's requests are in anyone's list.
    expect(
      (await ok<FollowRequestsResponse>('GET', apiUrl(profileRoutes.followRequests), fan)).users,
    ).toEqual([]);
  });

  it('a non-follower gets «Это закрытый аккаунт» for the posts, lists and a direct post link', async () => {
    for (const url of [
      apiUrl(mediaRoutes.userPosts, { username: owner.username }),
      apiUrl(profileRoutes.followers, { username: owner.username }),
      apiUrl(profileRoutes.following, { username: owner.username }),
      apiUrl(mediaRoutes.post, { id: postId }),
    ]) {
      const res = await call('GET', url, stranger);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ error: 'Это закрытый аккаунт', code: ErrorCode.privateAccount });
    }
    const like = await call('POST', apiUrl(mediaRoutes.like, { id: postId }), stranger);
    expect(like.statusCode).toBe(403);
    expect((await call('GET', apiUrl(mediaRoutes.comments, { id: postId }), stranger)).statusCode).toBe(403);
    const comment = await call('POST', apiUrl(mediaRoutes.comment, { id: postId }), stranger, {
      comment_text: 'привет',
    });
    expect(comment.statusCode).toBe(403);
    // A guest too.
    const guest = await t.app.inject({ method: 'GET', url: apiUrl(mediaRoutes.post, { id: postId }) });
    expect(guest.statusCode).toBe(403);
    // The owner sees their own.
    expect((await call('GET', apiUrl(mediaRoutes.post, { id: postId }), owner)).statusCode).toBe(200);
  });

  it('the feed and search leave the posts out for non-followers', async () => {
    const feedIds = async (who: U) =>
      (await ok<FeedResponse>('GET', apiUrl(mediaRoutes.feed, undefined, { limit: 50 }), who)).posts.map(
        (p) => p.id,
      );
    const found = async (who: U) =>
      (
        await ok<SearchResponse>(
          'GET',
          apiUrl(searchRoutes.media, undefined, { q: `закрытыйкадр${run}`, kind: 'posts' }),
          who,
        )
      ).posts.map((p) => p.id);
    expect(await feedIds(stranger)).not.toContain(postId);
    expect(await found(stranger)).not.toContain(postId);
    expect(await found(owner)).toContain(postId);
    expect(await feedIds(owner)).toContain(postId);
  });

  it('accepting makes a follower who then sees everything; declining drops the request', async () => {
    const accepted = await ok<{ accepted: boolean; followers_count: number }>(
      'POST',
      apiUrl(profileRoutes.acceptFollowRequest, { username: fan.username }),
      owner,
    );
    expect(accepted).toEqual({ accepted: true, followers_count: 1 });
    expect(await profileOf(owner, fan)).toMatchObject({
      is_following: true,
      is_requested: false,
      can_see_content: true,
      followers_count: 1,
    });
    expect((await call('GET', apiUrl(mediaRoutes.post, { id: postId }), fan)).statusCode).toBe(200);
    expect(
      (await call('GET', apiUrl(mediaRoutes.userPosts, { username: owner.username }), fan)).statusCode,
    ).toBe(200);
    const found = await ok<SearchResponse>(
      'GET',
      apiUrl(searchRoutes.media, undefined, { q: `закрытыйкадр${run}`, kind: 'posts' }),
      fan,
    );
    expect(found.posts.map((p) => p.id)).toContain(postId);
    const feed = await ok<FeedResponse>('GET', apiUrl(mediaRoutes.feed, undefined, { limit: 50 }), fan);
    expect(feed.posts.map((p) => p.id)).toContain(postId);
    // No request waits any more: answering again is a 404 with its own code.
    const again = await call(
      'POST',
      apiUrl(profileRoutes.acceptFollowRequest, { username: fan.username }),
      owner,
    );
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: ErrorCode.noFollowRequest });

    await ok('POST', apiUrl(profileRoutes.follow, { username: owner.username }), stranger);
    expect(
      await ok('DELETE', apiUrl(profileRoutes.declineFollowRequest, { username: stranger.username }), owner),
    ).toEqual({ accepted: false, followers_count: 1 });
    expect(await profileOf(owner, stranger)).toMatchObject({ is_requested: false, is_following: false });
    expect(
      (await ok<FollowRequestsResponse>('GET', apiUrl(profileRoutes.followRequests), owner)).users,
    ).toEqual([]);
  });

  it('unfollowing withdraws a waiting request; opening the account lets waiting ones in', async () => {
    const late = await user('Поздний');
    const waiting = await user('Ждущий');
    await ok('POST', apiUrl(profileRoutes.follow, { username: owner.username }), late);
    await ok('DELETE', apiUrl(profileRoutes.unfollow, { username: owner.username }), late);
    expect((await profileOf(owner, late)).is_requested).toBe(false);
    await ok('POST', apiUrl(profileRoutes.follow, { username: owner.username }), waiting);

    await makePrivate(owner, false);
    expect(await profileOf(owner, waiting)).toMatchObject({ is_following: true, is_requested: false });
    expect(
      (await ok<FollowRequestsResponse>('GET', apiUrl(profileRoutes.followRequests), owner)).users,
    ).toEqual([]);
    const open = await ok<{ is_following: boolean; is_requested: boolean }>(
      'POST',
      apiUrl(profileRoutes.follow, { username: owner.username }),
      late,
    );
    expect(open).toMatchObject({ is_following: true, is_requested: false });
    expect((await call('GET', apiUrl(mediaRoutes.post, { id: postId }), stranger)).statusCode).toBe(200);
  });

  it('the owner hears the waiting count live: a request arrives, is withdrawn', async () => {
    const shy = await user('Скромная');
    const asker = await user('Спрашивающий');
    await makePrivate(shy);
    const socket = await openSocket(url, shy.token, open);
    const arrived = nextEvent<{ count: number }>(
      socket,
      'follow-requests-changed',
      (e) => e.count === 1,
      10_000,
    );
    await ok('POST', apiUrl(profileRoutes.follow, { username: shy.username }), asker);
    await arrived;
    const withdrawn = nextEvent<{ count: number }>(
      socket,
      'follow-requests-changed',
      (e) => e.count === 0,
      10_000,
    );
    await ok('DELETE', apiUrl(profileRoutes.unfollow, { username: shy.username }), asker);
    await withdrawn;
  });
});
