import type { StoryGroup } from '@kadr/contract';
import { apiUrl, profileRoutes, type StoriesChangedEvent, settingsRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoriesServices } from '../src/modules/stories/module.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/** «Закрытый аккаунт»: its stories are for accepted followers only, and an acceptance reaches the strip at once. */
let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

interface U {
  token: string;
  id: number;
  username: string;
}

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', RATE_LIMITS: 'profile.follow=1000/1h' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  for (const s of open) s.disconnect();
  await t?.close();
}, 180_000);

async function user(name: string): Promise<U> {
  const s = await registerUser(t.app, undefined, name);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

async function ok<T>(method: 'GET' | 'POST' | 'PATCH', path: string, who: U, payload?: object): Promise<T> {
  const res = await t.app.inject({
    method,
    url: path,
    headers: bearer(who.token),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

/** The owners whose stories `who`'s strip shows (the route the strip asks, cached page and all). */
async function stripOwners(who: U): Promise<number[]> {
  const feed = await ok<{ stories_groups: StoryGroup[] }>('GET', apiUrl(storiesRoutes.feed), who);
  return feed.stories_groups.map((g) => g.user.id);
}

const storyStatus = async (id: number, who: U) =>
  (await t.app.inject({ method: 'GET', url: apiUrl(storiesRoutes.get, { id }), headers: bearer(who.token) }))
    .statusCode;

describe("a private account's stories", () => {
  it('a non-follower, or one whose request waits, sees none; an accepted follower sees them at once', async () => {
    const owner = await user('Закрытая');
    const asker = await user('Просящий');
    const stranger = await user('Прохожий');
    await ok('PATCH', apiUrl(settingsRoutes.update), owner, { privacy: { private_account: true } });
    const storyId = await (t.app.ctx.modules.stories as StoriesServices).service.publishReady({
      userId: owner.id,
      caption: 'только для своих',
      fileUrl: t.app.ctx.storage.publicUrl('stories/private.webp'),
      thumbnailUrl: t.app.ctx.storage.publicUrl('stories/private-thumb.webp'),
    });

    // Strangers: not in the strip, and a direct link answers 404.
    expect(await stripOwners(stranger)).not.toContain(owner.id);
    expect(await storyStatus(storyId, stranger)).toBe(404);

    // A waiting request is not a follow.
    const follow = await ok<{ is_requested: boolean }>(
      'POST',
      apiUrl(profileRoutes.follow, { username: owner.username }),
      asker,
    );
    expect(follow.is_requested).toBe(true);
    expect(await stripOwners(asker)).not.toContain(owner.id);
    expect(await storyStatus(storyId, asker)).toBe(404);

    // Accepted: the asker's devices hear it, and the strip they then ask for has the owner's story.
    const socket = await openSocket(url, asker.token, open);
    const told = nextEvent<StoriesChangedEvent>(
      socket,
      'stories-changed',
      (e) => e.user_id === owner.id,
      10_000,
    );
    await ok('POST', apiUrl(profileRoutes.acceptFollowRequest, { username: asker.username }), owner);
    await told;
    const strip = await ok<{ stories_groups: StoryGroup[] }>('GET', apiUrl(storiesRoutes.feed), asker);
    const group = strip.stories_groups.find((g) => g.user.id === owner.id);
    expect(group?.stories.map((s) => s.id)).toEqual([storyId]);
    expect(await storyStatus(storyId, asker)).toBe(200);
    // Still nothing for the stranger.
    expect(await stripOwners(stranger)).not.toContain(owner.id);
    expect(await storyStatus(storyId, stranger)).toBe(404);
  }, 120_000);
});
