import fs from 'node:fs';
import path from 'node:path';
import {
  apiUrl,
  authRoutes,
  type DemoState,
  ErrorCode,
  messengerRoutes,
  profileRoutes,
  type StoryGroup,
} from '@kadr/contract';
import { demoRoutes } from '@kadr/contract/demo/routes';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_POSTS, DEMO_STORIES, DEMO_USERS } from '../src/modules/demo/content.ts';
import { readManifest } from '../src/modules/demo/manifest.ts';
import { OPERATOR_HEADER } from '../src/modules/demo/module.ts';
import { storyScreenSize } from '../src/modules/media/processing/image-ops.ts';
import { bearer, countRows, createTestApp, registerUser, type TestApp } from './helpers.ts';

/** Waits (a condition, not a sleep) until the caller's run has finished; answers its last state. */
async function seeded(t: TestApp, headers: Record<string, string>, timeoutMs = 240_000): Promise<DemoState> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: apiUrl(demoRoutes.state), headers });
    const state = res.json() as DemoState;
    if (state.seeding && (state.seeding.status === 'done' || state.seeding.status === 'failed')) return state;
    if (Date.now() > until)
      throw new Error(
        `seeding still ${state.seeding?.status} at ${state.seeding?.done}/${state.seeding?.total}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('demo content on a first run', () => {
  let t: TestApp;
  let first: { token: string; id: number; username: string };
  let second: { token: string };

  beforeAll(async () => {
    t = await createTestApp({
      JOBS_POLL_MS: '50',
      LOG_LEVEL: process.env.KADR_DEMO_TEST_LOG ?? 'silent',
    });
    const a = await registerUser(t.app);
    first = { token: a.access_token, id: a.user.id, username: a.user.username };
    second = { token: (await registerUser(t.app)).access_token };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is offered to the first account of an empty instance only', async () => {
    const mine = await t.app.inject({
      method: 'GET',
      url: apiUrl(demoRoutes.state),
      headers: bearer(first.token),
    });
    expect(mine.json()).toEqual({ offer: true, seeding: null });
    const theirs = await t.app.inject({
      method: 'GET',
      url: apiUrl(demoRoutes.state),
      headers: bearer(second.token),
    });
    expect(theirs.json()).toEqual({ offer: false, seeding: null });
    const refused = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: bearer(second.token),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: ErrorCode.forbidden });
    const guest = await t.app.inject({ method: 'POST', url: apiUrl(demoRoutes.seed) });
    expect(guest.statusCode).toBe(401);
    const wrongKey = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: { [OPERATOR_HEADER]: 'nope' },
    });
    expect(wrongKey.statusCode).toBe(401);
    expect(await countRows(t.db, 'demo_seedings')).toBe(0);
  });

  it('seeds people, posts, stories and chats, and the asker follows them', async () => {
    const started = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: bearer(first.token),
    });
    expect(started.statusCode).toBe(202);
    expect((started.json() as DemoState).seeding?.status).toMatch(/queued|running/);
    // A second press joins the run in progress.
    const again = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: bearer(first.token),
    });
    expect((again.json() as DemoState).seeding?.id).toBe((started.json() as DemoState).seeding?.id);

    const state = await seeded(t, bearer(first.token));
    expect(state.seeding).toMatchObject({ status: 'done', error: null });
    expect(state.seeding?.done).toBe(state.seeding?.total);
    expect(state.offer).toBe(false);

    // The asker's home is alive at once: the people they now follow, their posts and stories.
    const me = await t.app.inject({
      method: 'GET',
      url: apiUrl(profileRoutes.get, { username: first.username }),
      headers: bearer(first.token),
    });
    expect(me.json().following_count).toBe(DEMO_USERS.length);
    const home = await t.app.inject({
      method: 'GET',
      url: apiUrl(storiesRoutes.homeFeed, {}, { limit: 50 }),
      headers: bearer(first.token),
    });
    const posts = home.json().posts as {
      files: { file_type: string; duration: number | null; width: number }[];
      ai_tags: string[];
    }[];
    expect(posts.length).toBe(DEMO_POSTS.length);
    const videos = posts.filter((p) => p.files[0]?.file_type === 'video');
    expect(videos.length).toBeGreaterThanOrEqual(4);
    for (const v of videos) expect(v.files[0]?.duration).toBeGreaterThan(5);
    // Phone resolution: every photo's feed variant is at least 1080 px on its long side.
    const files = posts.flatMap((p) => p.files) as unknown as {
      file_type: string;
      width: number;
      height: number;
    }[];
    for (const f of files.filter((f) => f.file_type === 'image'))
      expect(Math.max(f.width, f.height)).toBeGreaterThanOrEqual(1080);
    const stories = await t.app.inject({
      method: 'GET',
      url: apiUrl(storiesRoutes.feed),
      headers: bearer(first.token),
    });
    expect(stories.json().stories_groups.length).toBeGreaterThan(0);
    // The served files are the prepared variants, stored content-addressed.
    const file = posts[0]?.files[0] as unknown as { file_url: string };
    const served = await t.app.inject({ method: 'GET', url: file.file_url });
    expect(served.statusCode).toBe(200);
    // Every photo has its prepared screen variant, what the feed shows.
    const screens = (files as unknown as { file_type: string; screen_url?: string | null }[])
      .filter((f) => f.file_type === 'image')
      .map((f) => f.screen_url);
    for (const url of screens) expect(url).toMatch(/^\/files\/media\//);
    const screen = await t.app.inject({ method: 'GET', url: screens[0] as string });
    expect(screen.statusCode).toBe(200);
    // A story larger than 720×1280 has its prepared screen variant (what a phone's viewer shows), 720×1280.
    const shown = (stories.json().stories_groups as StoryGroup[]).flatMap((g) => g.stories);
    const storyScreens = shown.flatMap((st) => (st.screen_url ? [st.screen_url] : []));
    expect(storyScreens.length).toBeGreaterThan(0);
    for (const url of storyScreens) expect(url).toMatch(/^\/files\/stories\//);
    const storyScreen = await t.app.inject({ method: 'GET', url: storyScreens[0] as string });
    expect(storyScreen.statusCode).toBe(200);
    const storyScreenMeta = await sharp(storyScreen.rawPayload).metadata();
    expect([storyScreenMeta.width, storyScreenMeta.height]).toEqual([720, 1280]);
    // Prepared for every demo story the pipeline would give one (all but the 720×1280 one).
    for (const m of Object.values(readManifest().media).filter((m) => m.kind === 'story'))
      expect(m.screen !== undefined).toBe(storyScreenSize(m.width, m.height) !== null);

    // The asker got a welcome message and is in the group and the channel.
    const chats = await t.app.inject({
      method: 'GET',
      url: apiUrl(messengerRoutes.chats),
      headers: bearer(first.token),
    });
    const rows = chats.json().chats as { type: string; unread_count: number }[];
    expect(new Set(rows.map((c) => c.type))).toEqual(new Set(['channel', 'group', 'personal']));
  }, 300_000);

  it("leaves no unread badge on a chat whose last message is one's own", async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.login),
      payload: { username: 'demo_anna', password: 'demo-password-2024' },
    });
    const token = login.json().access_token as string;
    const chats = await t.app.inject({
      method: 'GET',
      url: apiUrl(messengerRoutes.chats),
      headers: bearer(token),
    });
    const rows = chats.json().chats as {
      unread_count: number;
      last_message: { is_own?: boolean; sender_id?: number } | null;
    }[];
    const annaId = login.json().user.id as number;
    const own = rows.filter((c) => c.last_message?.sender_id === annaId);
    expect(own.length).toBeGreaterThan(0);
    for (const c of own) expect(c.unread_count).toBe(0);
  });

  it('is idempotent: a second run adds nothing twice', async () => {
    const tables = [
      'users',
      'posts',
      'post_files',
      'post_comments',
      'post_likes',
      'stories',
      'messages',
      'follows',
    ] as const;
    const before = Object.fromEntries(
      await Promise.all(tables.map(async (n) => [n, await countRows(t.db, n)])),
    );
    const key = fs.readFileSync(path.join(t.dataDir, 'operator.key'), 'utf8').trim();
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: { [OPERATOR_HEADER]: key },
    });
    expect(res.statusCode).toBe(202);
    expect((await seeded(t, { [OPERATOR_HEADER]: key })).seeding?.status).toBe('done');
    const after = Object.fromEntries(
      await Promise.all(tables.map(async (n) => [n, await countRows(t.db, n)])),
    );
    expect(after).toEqual(before);
    expect(before.stories).toBe(DEMO_STORIES.length);
  }, 300_000);

  it('is not offered once the instance has posts, nor where DEMO_CONTENT is off', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(demoRoutes.seed),
      headers: bearer(first.token),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: ErrorCode.instanceNotEmpty });

    const off = await createTestApp({ DEMO_CONTENT: 'false' });
    try {
      const user = await registerUser(off.app);
      const state = await off.app.inject({
        method: 'GET',
        url: apiUrl(demoRoutes.state),
        headers: bearer(user.access_token),
      });
      expect(state.json()).toEqual({ offer: false, seeding: null });
      const refused = await off.app.inject({
        method: 'POST',
        url: apiUrl(demoRoutes.seed),
        headers: bearer(user.access_token),
      });
      expect(refused.statusCode).toBe(403);
      expect(await countRows(off.db, 'demo_seedings')).toBe(0);
    } finally {
      await off.close();
    }
  }, 120_000);
});
