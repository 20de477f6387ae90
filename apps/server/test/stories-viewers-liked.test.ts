import type { Story, StoryGroup } from '@kadr/contract';
import { apiUrl, profileRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brightImage } from '../src/modules/media/demo/generate.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { MEDIA_TEST_ENV, upload } from './media-helpers.ts';

let t: TestApp;
let a: { token: string; id: number; username: string };
let b: { token: string; id: number; username: string };
let c: { token: string; id: number; username: string };
let story: Story;

async function user() {
  const s = await registerUser(t.app);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string) =>
  t.app.inject({ method, url, headers: bearer(token) });

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  [a, b, c] = [await user(), await user(), await user()];
  for (const who of [b, c])
    await call('POST', apiUrl(profileRoutes.follow, { username: a.username }), who.token);
  const res = await upload(
    t.app,
    a.token,
    [
      { field: 'file', filename: 's.jpg', contentType: 'image/jpeg', data: await brightImage() },
      { field: 'media_type', data: 'photo' },
    ],
    apiUrl(storiesRoutes.upload),
  );
  expect(res.statusCode, res.body).toBe(200);
  const id = (res.json() as { story: Story }).story.id;
  await t.app.ctx.media.jobs.idle();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const feed = (await call('GET', apiUrl(storiesRoutes.feed), a.token)).json() as {
      stories_groups: StoryGroup[];
    };
    const found = feed.stories_groups.flatMap((g) => g.stories).find((s) => s.id === id);
    if (found?.status === 'ready') {
      story = found;
      break;
    }
    if (Date.now() > deadline) throw new Error('story not ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('the owner’s viewers list', () => {
  it('marks who of the viewers liked the story, and forgets an unlike', async () => {
    const likedBy = async () =>
      new Map(
        (
          (await call('GET', apiUrl(storiesRoutes.viewers, { id: story.id }), a.token)).json() as {
            viewers: { user: { id: number }; liked: boolean }[];
          }
        ).viewers.map((v) => [v.user.id, v.liked]),
      );
    await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token);
    await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), c.token);
    expect(await likedBy()).toEqual(
      new Map([
        [b.id, false],
        [c.id, false],
      ]),
    );
    expect((await call('POST', apiUrl(storiesRoutes.like, { id: story.id }), b.token)).statusCode).toBe(200);
    expect(await likedBy()).toEqual(
      new Map([
        [b.id, true],
        [c.id, false],
      ]),
    );
    await call('DELETE', apiUrl(storiesRoutes.unlike, { id: story.id }), b.token);
    expect((await likedBy()).get(b.id)).toBe(false);
  });
});
