import fs from 'node:fs';
import path from 'node:path';
import type { Message, Story, StoryGroup } from '@kadr/contract';
import {
  apiUrl,
  mediaRoutes,
  messengerRoutes,
  moderationRoutes,
  profileRoutes,
  StoryErrorText,
  settingsRoutes,
} from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brightImage, generateVideo, imageWithExif } from '../src/modules/media/demo/generate.ts';
import { findFfmpeg, probe } from '../src/modules/media/processing/ffmpeg.ts';
import { storyScreenSize } from '../src/modules/media/processing/image-ops.ts';
import type { StoriesServices } from '../src/modules/stories/module.ts';
import { clampDuration } from '../src/modules/stories/service.ts';
import { sweepOrphans } from '../src/storage/references.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { filesUnder, MEDIA_TEST_ENV, multipart, type Part, upload as uploadTo } from './media-helpers.ts';

let t: TestApp;
let a: { token: string; id: number; username: string };
let b: { token: string; id: number; username: string };
let image: Buffer;
let exif: Buffer;
let longVideo: string;
let fixtures: string;

const stories = () => t.app.ctx.modules.stories as StoriesServices;
const media = () => path.join(t.dataDir, 'media');
const tmp = () => path.join(t.dataDir, 'tmp');
/** Where a stored story file lies on disk. */
const onDisk = (url: string) => path.join(media(), t.app.ctx.storage.keyFromUrl(url)!);

/**
 * A real photograph (the tagger's evaluation set) at a phone camera's frame, 3024×4032 JPEG at quality 90, as
 * bench/lighthouse-seed.ts uploads its story; with a camera's EXIF, which no stored variant may keep.
 */
function phonePhoto(name: string): Promise<Buffer> {
  return sharp(fs.readFileSync(path.join(import.meta.dirname, 'fixtures/eval-photos', name)))
    .resize(3024, 4032, { fit: 'cover', kernel: 'lanczos3' })
    .jpeg({ quality: 90 })
    .withMetadata({ exif: { IFD0: { Make: 'KadrTestCam', Model: 'Secret GPS' } } })
    .toBuffer();
}

async function user() {
  const s = await registerUser(t.app);
  return { token: s.access_token, id: s.user.id, username: s.user.username };
}

async function follow(who: { token: string }, whom: { username: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(profileRoutes.follow, { username: whom.username }),
    headers: bearer(who.token),
  });
  expect(res.statusCode).toBe(200);
}

const upload = (token: string, parts: Part[]) => uploadTo(t.app, token, parts, apiUrl(storiesRoutes.upload));

/** Uploads, waits for the job queue, answers the story as its owner sees it in the feed. */
async function publish(token: string, parts: Part[]): Promise<Story> {
  const res = await upload(token, parts);
  expect(res.statusCode, res.body).toBe(200);
  const { story } = res.json() as { story: Story };
  expect(story.status).toBe('processing');
  await t.app.ctx.media.jobs.idle();
  // The job's last step (the read caches told of the ready story) can trail the queue going idle by a moment.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const feed = await getFeed(token);
    const found = feed.flatMap((g) => g.stories).find((s) => s.id === story.id);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('story not in the owner feed after processing');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function getFeed(token: string): Promise<StoryGroup[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: apiUrl(storiesRoutes.feed, undefined, { limit: 20 }),
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { stories_groups: StoryGroup[] }).stories_groups;
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  a = await user();
  b = await user();
  await follow(b, a);
  await follow(a, b);
  image = await brightImage();
  exif = await imageWithExif();
  fixtures = tempDir('kadr-stories-fixtures-');
  // 200 s at a tiny size and frame rate: generated in seconds, long enough to prove the cut.
  longVideo = path.join(fixtures, 'long.mp4');
  const bins = findFfmpeg();
  await generateVideo(bins, longVideo, { seconds: 200, width: 160, height: 90 });
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (fixtures) fs.rmSync(fixtures, { recursive: true, force: true });
});

describe('upload rules (checked by content, nothing stored when refused)', () => {
  it('refuses a caption of 201 characters with 400', async () => {
    const res = await upload(a.token, [
      { field: 'file', filename: 's.jpg', contentType: 'image/jpeg', data: image },
      { field: 'caption', data: 'я'.repeat(201) },
      { field: 'media_type', data: 'photo' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(StoryErrorText.captionTooLong);
  });

  it('refuses a text file named .jpg with 400 and stores nothing', async () => {
    const before = await t.db.kysely.selectFrom('stories').select('id').execute();
    const res = await upload(a.token, [
      {
        field: 'file',
        filename: 'photo.jpg',
        contentType: 'image/jpeg',
        data: 'just text, not an image at all',
      },
      { field: 'media_type', data: 'photo' },
    ]);
    expect(res.statusCode).toBe(400);
    const after = await t.db.kysely.selectFrom('stories').select('id').execute();
    expect(after.length).toBe(before.length);
    expect(filesUnder(tmp())).toEqual([]);
    const jobs = await t.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'stories.process')
      .execute();
    expect(jobs.length).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const body = multipart([{ field: 'file', filename: 's.jpg', data: image }]);
    const res = await t.app.inject({ method: 'POST', url: apiUrl(storiesRoutes.upload), ...body });
    expect(res.statusCode).toBe(401);
  });
});

describe('an image story', () => {
  let story: Story;

  beforeAll(async () => {
    story = await publish(a.token, [
      { field: 'file', filename: 'exif.jpg', contentType: 'image/jpeg', data: exif },
      { field: 'caption', data: 'Утро' },
      { field: 'media_type', data: 'photo' },
    ]);
  }, 60_000);

  it('is stored 9:16 without EXIF, tagged, lasting the default 15 s', async () => {
    expect(story.status).toBe('ready');
    expect(story.duration).toBe(15);
    expect(story.caption).toBe('Утро');
    const key = t.app.ctx.storage.keyFromUrl(story.file_url!)!;
    const meta = await sharp(path.join(media(), key)).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Math.abs(meta.width! / meta.height! - 9 / 16)).toBeLessThan(0.01);
    expect(Array.isArray(story.ai_tags)).toBe(true);
  });

  it("appears in the follower's feed with the §3 group shape, unviewed", async () => {
    const groups = await getFeed(b.token);
    const group = groups.find((g) => g.user.id === a.id)!;
    expect(group.user).toMatchObject({ id: a.id, username: a.username, display_name: expect.any(String) });
    expect(group.has_unviewed).toBe(true);
    expect(group.stories.map((s) => s.id)).toContain(story.id);
    const res = await call('GET', apiUrl(storiesRoutes.feed), b.token);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('counts a viewer once and never the owner', async () => {
    expect(
      (await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), a.token)).json().views_count,
    ).toBe(0);
    expect(
      (await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token)).json().views_count,
    ).toBe(1);
    expect(
      (await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token)).json().views_count,
    ).toBe(1);
    const group = (await getFeed(b.token)).find((g) => g.user.id === a.id)!;
    expect(group.stories.find((s) => s.id === story.id)!.is_viewed).toBe(true);
    expect(group.stories.find((s) => s.id === story.id)!.views_count).toBe(1);
  });

  it('shows the viewers list to the owner only', async () => {
    const own = await call('GET', apiUrl(storiesRoutes.viewers, { id: story.id }), a.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().viewers.map((v: { user: { id: number } }) => v.user.id)).toEqual([b.id]);
    expect((await call('GET', apiUrl(storiesRoutes.viewers, { id: story.id }), b.token)).statusCode).toBe(
      403,
    );
  });

  it('likes and unlikes', async () => {
    expect((await call('POST', apiUrl(storiesRoutes.like, { id: story.id }), b.token)).json()).toEqual({
      is_liked: true,
      likes_count: 1,
    });
    expect((await call('POST', apiUrl(storiesRoutes.like, { id: story.id }), b.token)).json()).toEqual({
      is_liked: true,
      likes_count: 1,
    });
    expect((await call('DELETE', apiUrl(storiesRoutes.unlike, { id: story.id }), b.token)).json()).toEqual({
      is_liked: false,
      likes_count: 0,
    });
  });

  it('sends a reply into the personal chat with a preview of the story', async () => {
    expect(
      (await call('POST', apiUrl(storiesRoutes.reply, { id: story.id }), b.token, { content: '   ' }))
        .statusCode,
    ).toBe(400);
    const res = await call('POST', apiUrl(storiesRoutes.reply, { id: story.id }), b.token, {
      content: 'Красиво!',
    });
    expect(res.statusCode, res.body).toBe(200);
    const conv = await call(
      'GET',
      apiUrl(messengerRoutes.conversation, undefined, { other_user_id: b.id }),
      a.token,
    );
    const messages = conv.json().messages as Message[];
    const last = messages.at(-1)!;
    expect(last.content).toBe('Красиво!');
    expect(last.story).toEqual({
      id: story.id,
      media_type: 'photo',
      media_url: story.file_url,
      thumbnail_url: story.thumbnail_url,
      expired: false,
    });
  });

  it('marks the story filtered for a viewer who hides one of its tags', async () => {
    const c = await user();
    await follow(c, a);
    const tag = story.ai_tags.find((x) => x !== 'for_sleep') ?? story.ai_tags[0];
    expect(tag).toBeDefined();
    const before = (await getFeed(c.token)).find((g) => g.user.id === a.id)!;
    expect(before.stories.find((s) => s.id === story.id)!.is_filtered).toBe(false);
    expect((await call('POST', apiUrl(mediaRoutes.blacklistAdd), c.token, { tag })).statusCode).toBe(200);
    const after = (await getFeed(c.token)).find((g) => g.user.id === a.id)!;
    expect(after.stories.find((s) => s.id === story.id)!.is_filtered).toBe(true);
  });

  it('hides a reported story from the reporter only', async () => {
    const c = await user();
    await follow(c, a);
    const res = await call('POST', apiUrl(moderationRoutes.report), c.token, {
      kind: 'story',
      target_id: story.id,
      reason: 'spam',
    });
    expect(res.statusCode).toBe(200);
    const mine = (await getFeed(c.token)).flatMap((g) => g.stories).map((s) => s.id);
    expect(mine).not.toContain(story.id);
    expect((await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), c.token)).statusCode).toBe(404);
    const others = (await getFeed(b.token)).flatMap((g) => g.stories).map((s) => s.id);
    expect(others).toContain(story.id);
  });

  it('refuses the owner reporting their own story with its own code, storing nothing', async () => {
    const res = await call('POST', apiUrl(moderationRoutes.report), a.token, {
      kind: 'story',
      target_id: story.id,
      reason: 'spam',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Нельзя пожаловаться на самого себя или своё',
      code: 'cannot_report_own',
    });
    const own = (await getFeed(a.token)).flatMap((g) => g.stories).map((s) => s.id);
    expect(own).toContain(story.id);
  });
});

describe('the screen variant (what a phone shows)', () => {
  it('a phone photo’s story gets one: webp without EXIF, exactly the size the web names, lighter than the file', async () => {
    const story = await publish(a.token, [
      { field: 'file', filename: 'home.jpg', contentType: 'image/jpeg', data: await phonePhoto('home.jpg') },
      { field: 'media_type', data: 'photo' },
    ]);
    expect(story.screen_url).toMatch(/^\/files\/stories\/.+\.webp$/);
    const file = await t.app.inject({ method: 'GET', url: story.file_url! });
    const shown = await t.app.inject({ method: 'GET', url: story.screen_url! });
    expect([file.statusCode, shown.statusCode]).toEqual([200, 200]);
    const fileMeta = await sharp(file.rawPayload).metadata();
    const meta = await sharp(shown.rawPayload).metadata();
    expect([fileMeta.width, fileMeta.height]).toEqual([1080, 1920]);
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(file.rawPayload.includes('KadrTestCam')).toBe(false);
    expect(shown.rawPayload.includes('KadrTestCam')).toBe(false);
    // 720×1280: the story frame fitted inside 720×1280 (apps/web post-image.ts STORY_SCREEN).
    expect({ width: meta.width, height: meta.height }).toEqual(
      storyScreenSize(fileMeta.width!, fileMeta.height!),
    );
    expect([meta.width, meta.height]).toEqual([720, 1280]);
    expect(shown.rawPayload.length).toBeLessThan(file.rawPayload.length);

    // Every read path names it: the follower's strip and the story opened by link.
    const inFeed = (await getFeed(b.token)).flatMap((g) => g.stories).find((s) => s.id === story.id);
    expect(inFeed?.screen_url).toBe(story.screen_url);
    const byLink = await call('GET', apiUrl(storiesRoutes.get, { id: story.id }), b.token);
    const linked = (byLink.json().group.stories as Story[]).find((s) => s.id === story.id);
    expect(linked?.screen_url).toBe(story.screen_url);
  }, 120_000);

  it('a photo no larger than 720×1280 gets none (its own file is screen-sized); a story from before it reads null', async () => {
    const small = await publish(a.token, [{ field: 'file', filename: 's.jpg', data: await brightImage(3) }]);
    expect(small.screen_url).toBeNull();
    const meta = await sharp(onDisk(small.file_url!)).metadata();
    expect([meta.width, meta.height]).toEqual([608, 1080]);

    const old = await stories().service.publishReady({
      userId: a.id,
      caption: 'Старая история',
      fileUrl: '/files/stories/old/story.webp',
      thumbnailUrl: '/files/stories/old/thumb.webp',
    });
    const group = (await call('GET', apiUrl(storiesRoutes.get, { id: old }), b.token)).json().group;
    expect((group.stories as Story[]).find((s) => s.id === old)).toMatchObject({
      file_url: '/files/stories/old/story.webp',
      screen_url: null,
    });
    await call('DELETE', apiUrl(storiesRoutes.remove, { id: old }), a.token);
  }, 120_000);

  it('goes with the story when deleted, but not while another story shows the same picture', async () => {
    const photo = await phonePhoto('coffee.jpg');
    const parts = [{ field: 'file', filename: 'c.jpg', data: photo }];
    const mine = await publish(a.token, parts);
    const theirs = await publish(b.token, parts);
    // Content-addressed: the same upload makes the same files.
    expect(theirs.screen_url).toBe(mine.screen_url);
    const files = [mine.file_url!, mine.thumbnail_url!, mine.screen_url!].map(onDisk);
    for (const f of files) expect(fs.existsSync(f)).toBe(true);

    expect((await call('DELETE', apiUrl(storiesRoutes.remove, { id: mine.id }), a.token)).statusCode).toBe(
      200,
    );
    for (const f of files) expect(fs.existsSync(f)).toBe(true);
    expect((await call('DELETE', apiUrl(storiesRoutes.remove, { id: theirs.id }), b.token)).statusCode).toBe(
      200,
    );
    for (const f of files) expect(fs.existsSync(f)).toBe(false);
  }, 120_000);

  it('goes with a deleted account at the orphan sweep, which keeps every live story’s', async () => {
    const c = await user();
    const gone = await publish(c.token, [
      { field: 'file', filename: 'r.jpg', data: await phonePhoto('rocket.jpg') },
    ]);
    const kept = await publish(a.token, [
      { field: 'file', filename: 'h.jpg', data: await phonePhoto('chelsea.jpg') },
    ]);
    const goneFiles = [gone.file_url!, gone.thumbnail_url!, gone.screen_url!].map(onDisk);
    const keptFiles = [kept.file_url!, kept.thumbnail_url!, kept.screen_url!].map(onDisk);
    expect(gone.screen_url).not.toBeNull();
    expect(kept.screen_url).not.toBeNull();
    const bye = await call('POST', apiUrl(settingsRoutes.deleteAccount), c.token, {
      password: 'correct horse',
    });
    expect(bye.statusCode, bye.body).toBe(200);
    // The durable sweep (media.sweep job), here without its grace period (which protects uploads in flight).
    await sweepOrphans(t.db.kysely, t.app.ctx.storage, { graceMs: 0, prefixes: ['stories/'] });
    for (const f of goneFiles) expect(fs.existsSync(f)).toBe(false);
    for (const f of keptFiles) expect(fs.existsSync(f)).toBe(true);
  }, 120_000);
});

describe('lifetime', () => {
  it('after 24 h the story is gone from every answer, and the expiry job removes its files', async () => {
    const story = await publish(a.token, [
      {
        field: 'file',
        filename: 'b.jpg',
        contentType: 'image/jpeg',
        data: await phonePhoto('butterfly.jpg'),
      },
      { field: 'caption', data: 'скоро исчезнет' },
    ]);
    // The picture, its thumbnail and its screen variant.
    const files = [story.file_url!, story.thumbnail_url!, story.screen_url!].map(onDisk);
    for (const f of files) expect(fs.existsSync(f)).toBe(true);
    const { clock } = stories();
    const real = clock.now;
    try {
      clock.now = () => new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
      const ids = (await getFeed(b.token)).flatMap((g) => g.stories).map((s) => s.id);
      expect(ids).not.toContain(story.id);
      expect((await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token)).statusCode).toBe(
        404,
      );
      expect((await call('POST', apiUrl(storiesRoutes.like, { id: story.id }), b.token)).statusCode).toBe(
        404,
      );
      expect((await call('GET', apiUrl(storiesRoutes.get, { id: story.id }), b.token)).statusCode).toBe(404);
      expect((await call('GET', apiUrl(storiesRoutes.viewers, { id: story.id }), a.token)).statusCode).toBe(
        404,
      );
      // The periodic job's run (the same handler the queue calls).
      expect(await stories().service.expire()).toBeGreaterThan(0);
      for (const f of files) expect(fs.existsSync(f)).toBe(false);
      const row = await t.db.kysely
        .selectFrom('stories')
        .select('id')
        .where('id', '=', story.id)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      clock.now = real;
    }
  }, 60_000);

  it('keeps one queued expiry job however many nodes schedule it', async () => {
    await stories().service.scheduleExpiry();
    await stories().service.scheduleExpiry();
    const queued = await t.db.kysely
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'stories.expire')
      .where('status', '=', 'queued')
      .execute();
    expect(queued.length).toBe(1);
  });
});

describe('a video story', () => {
  it('cuts a 200 s video to the chosen 15 s segment, 9:16, H.264/AAC faststart with a poster', async () => {
    const story = await publish(a.token, [
      { field: 'file', filename: 'long.mp4', contentType: 'video/mp4', data: fs.readFileSync(longVideo) },
      { field: 'media_type', data: 'video' },
      { field: 'start', data: '100' },
      { field: 'duration', data: '15' },
    ]);
    expect(story.media_type).toBe('video');
    const file = path.join(media(), t.app.ctx.storage.keyFromUrl(story.file_url!)!);
    const info = await probe(findFfmpeg(), file);
    expect(info.duration).toBeGreaterThan(14.5);
    expect(info.duration).toBeLessThan(15.5);
    expect(info.video?.codec).toBe('h264');
    expect(info.hasAudio).toBe(true);
    expect(Math.abs(info.video!.width / info.video!.height - 9 / 16)).toBeLessThan(0.02);
    // faststart: the index (moov) comes before the media data (mdat).
    const head = fs
      .readFileSync(file)
      .subarray(0, 64 * 1024)
      .toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(-1);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat') === -1 ? Infinity : head.indexOf('mdat'));
    expect(story.duration).toBeGreaterThan(14.5);
    expect(story.thumbnail_url).toMatch(/\.webp$/);
    // The viewer shows a video's poster: no screen variant.
    expect(story.screen_url).toBeNull();
  }, 180_000);

  it('clamps the duration to 1–120 s (default 15)', async () => {
    expect([clampDuration(0.2), clampDuration(15), clampDuration(500)]).toEqual([1, 15, 120]);
    const story = await publish(a.token, [
      { field: 'file', filename: 'long.mp4', data: fs.readFileSync(longVideo) },
      { field: 'start', data: '10' },
      { field: 'duration', data: '0.2' },
    ]);
    const info = await probe(
      findFfmpeg(),
      path.join(media(), t.app.ctx.storage.keyFromUrl(story.file_url!)!),
    );
    expect(info.duration).toBeGreaterThan(0.9);
    expect(info.duration).toBeLessThan(1.2);
  }, 120_000);
});

describe('owner actions', () => {
  it('only the owner deletes, and the files go', async () => {
    const story = await publish(a.token, [{ field: 'file', filename: 'x.jpg', data: image }]);
    expect((await call('DELETE', apiUrl(storiesRoutes.remove, { id: story.id }), b.token)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', apiUrl(storiesRoutes.remove, { id: story.id }), a.token)).json()).toEqual({
      deleted: true,
    });
    expect((await call('POST', apiUrl(storiesRoutes.view, { id: story.id }), b.token)).statusCode).toBe(404);
  }, 60_000);

  it('opens a story by link as its author group', async () => {
    const story = await publish(a.token, [{ field: 'file', filename: 'y.jpg', data: image }]);
    const res = await call('GET', apiUrl(storiesRoutes.get, { id: story.id }), b.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().group.user.id).toBe(a.id);
    expect(res.json().story_id).toBe(story.id);
  }, 60_000);
});
