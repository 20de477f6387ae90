import path from 'node:path';
import { apiUrl, ErrorText, mediaRoutes, type Post, profileRoutes } from '@kadr/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSize } from '../src/modules/media/processing/image-ops.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import {
  count,
  type Fixtures,
  filesUnder,
  MEDIA_TEST_ENV,
  makeFixtures,
  publish,
  upload,
} from './media-helpers.ts';

let t: TestApp;
let fx: Fixtures;
let token: string;

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  fx = await makeFixtures();
  token = (await registerUser(t.app)).access_token;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const media = () => path.join(t.dataDir, 'media');
const tmp = () => path.join(t.dataDir, 'tmp');

describe('§5 upload rules: refused with the spec message, nothing stored', () => {
  const cases: [string, () => Parameters<typeof upload>[2], string][] = [
    [
      'wrong type',
      () => [{ field: 'files', filename: 'a.pdf', data: '%PDF-1.4 not media' }],
      ErrorText.uploadWrongType,
    ],
    [
      'a text file named .mp4',
      () => [
        {
          field: 'files',
          filename: 'clip.mp4',
          contentType: 'video/mp4',
          data: 'just some text, not a video at all',
        },
      ],
      ErrorText.uploadWrongType,
    ],
    [
      'video plus image',
      () => [
        { field: 'files', filename: 'v.mp4', data: fx.video },
        { field: 'files', filename: 'i.jpg', data: fx.bright },
      ],
      ErrorText.uploadWrongCombination,
    ],
    [
      'two videos',
      () => [
        { field: 'files', filename: 'v.mp4', data: fx.video },
        { field: 'files', filename: 'w.mp4', data: fx.video },
      ],
      ErrorText.uploadWrongCombination,
    ],
    ['no files', () => [{ field: 'caption', data: 'без файлов' }], ErrorText.uploadNoFiles],
    [
      'caption of 501 characters',
      () => [
        { field: 'caption', data: 'я'.repeat(501) },
        { field: 'files', filename: 'i.jpg', data: fx.bright },
      ],
      ErrorText.uploadCaptionTooLong,
    ],
    [
      'non-image cover',
      () => [
        { field: 'files', filename: 'v.mp4', data: fx.video },
        { field: 'thumbnail', filename: 'cover.jpg', contentType: 'image/jpeg', data: fx.video },
      ],
      ErrorText.uploadCoverNotImage,
    ],
  ];
  for (const [name, parts, message] of cases) {
    it(name, async () => {
      const res = await upload(t.app, token, parts());
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error).toBe(message);
      expect(await count(t.db, 'posts')).toBe(0);
      expect(await count(t.db, 'post_files')).toBe(0);
      expect(await count(t.db, 'jobs')).toBe(0);
      expect(filesUnder(media())).toEqual([]);
      expect(filesUnder(tmp())).toEqual([]);
    });
  }

  it('a guest cannot upload', async () => {
    const res = await upload(t.app, null, [{ field: 'files', filename: 'i.jpg', data: fx.bright }]);
    expect(res.statusCode).toBe(401);
    expect(await count(t.db, 'posts')).toBe(0);
  });

  it('a file over MEDIA_MAX_IMAGE_BYTES is refused and leaves nothing', async () => {
    const small = await createTestApp({ ...MEDIA_TEST_ENV, MEDIA_MAX_IMAGE_BYTES: '2048' }, { db: t.db });
    try {
      const res = await upload(small.app, token, [{ field: 'files', filename: 'i.jpg', data: fx.bright }]);
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe(ErrorText.uploadTooLarge);
      expect(await count(t.db, 'posts')).toBe(0);
      expect(filesUnder(path.join(small.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('accepted uploads are processed', () => {
  it('a video becomes H.264/AAC MP4 with faststart, a poster, duration and size', async () => {
    const post = await publish(t.app, token, [
      { field: 'caption', data: '  Тестовое видео #музыка  ' },
      { field: 'media_type', data: 'video' },
      { field: 'files', filename: 'clip.bin', data: fx.video },
    ]);
    expect(post.status).toBe('done');
    expect(post.media_type).toBe('video');
    expect(post.caption).toBe('Тестовое видео #музыка');
    const [file] = post.files;
    expect(file!.file_type).toBe('video');
    expect(file!.screen_url).toBeNull();
    expect(file!.width).toBe(360);
    expect(file!.height).toBe(640);
    expect(file!.duration).toBeGreaterThan(1.5);
    expect(post.ai_tags).toContain('music');
    expect(post.ai_description.length).toBeGreaterThan(5);
    const mp4 = await t.app.inject({ method: 'GET', url: file!.file_url });
    expect(mp4.statusCode).toBe(200);
    const bytes = mp4.rawPayload;
    // faststart: the moov box comes before mdat.
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    expect(bytes.includes('avc1')).toBe(true);
    expect(bytes.includes('mp4a')).toBe(true);
    const poster = await t.app.inject({ method: 'GET', url: file!.thumbnail_url! });
    expect((await sharp(poster.rawPayload).metadata()).format).toBe('webp');
    expect(filesUnder(tmp())).toEqual([]);
    const profile = await t.app.inject({
      method: 'GET',
      url: apiUrl(profileRoutes.get, { username: post.user.username }),
      headers: bearer(token),
    });
    expect(profile.json().posts_count).toBe(1);
  }, 120_000);

  it('a video with an uploaded cover uses it as the poster', async () => {
    const post = await publish(t.app, token, [
      { field: 'files', filename: 'v.mp4', data: fx.video },
      { field: 'thumbnail', filename: 'c.jpg', data: fx.night },
    ]);
    const poster = await t.app.inject({ method: 'GET', url: post.files[0]!.thumbnail_url! });
    const stats = await sharp(poster.rawPayload).stats();
    // The night cover is dark; testsrc2's first frame is bright.
    expect(stats.channels[0]!.mean).toBeLessThan(60);
  }, 120_000);

  it('a carousel of three images becomes webp variants without EXIF', async () => {
    const post = await publish(t.app, token, [
      { field: 'media_type', data: 'carousel' },
      { field: 'files', filename: '1.jpg', data: fx.exif },
      { field: 'files', filename: '2.jpg', data: fx.bright },
      { field: 'files', filename: '3.png', data: fx.person },
    ]);
    expect(post.media_type).toBe('carousel');
    expect(post.files.map((f) => f.file_type)).toEqual(['image', 'image', 'image']);
    const first = await t.app.inject({ method: 'GET', url: post.files[0]!.file_url });
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(first.rawPayload.includes('KadrTestCam')).toBe(false);
    // Orientation 6 was applied: 400×300 landscape became portrait.
    expect([post.files[0]!.width, post.files[0]!.height]).toEqual([300, 400]);
    // Each photo's screen variant (what the feed shows): webp without EXIF, oriented, at the size the web computes.
    for (const file of post.files) {
      expect(file.screen_url).toMatch(/^\/files\/media\//);
      const screen = await t.app.inject({ method: 'GET', url: file.screen_url! });
      expect(screen.statusCode).toBe(200);
      const screenMeta = await sharp(screen.rawPayload).metadata();
      expect(screenMeta.format).toBe('webp');
      expect(screenMeta.exif).toBeUndefined();
      expect({ width: screenMeta.width, height: screenMeta.height }).toEqual(
        screenSize(file.width!, file.height!),
      );
    }
  }, 120_000);

  it('a photo stored before the screen variant existed reads with screen_url null', async () => {
    const me = await registerUser(t.app);
    const id = await t.app.ctx.media.publishReady({
      userId: me.user.id,
      caption: 'Фото из прошлого',
      mediaType: 'photo',
      createdAt: new Date(),
      tags: [],
      forSleep: false,
      calmScore: 0.5,
      description: 'Фото',
      provider: 'test',
      model: 'test',
      files: [
        {
          file_type: 'image',
          file_url: '/files/media/old/feed.webp',
          thumbnail_url: '/files/media/old/thumb.webp',
          width: 1080,
          height: 1440,
          duration: null,
        },
      ],
    });
    const read = await t.app.inject({
      method: 'GET',
      url: apiUrl(mediaRoutes.post, { id }),
      headers: bearer(token),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().post.files[0]).toMatchObject({
      file_url: '/files/media/old/feed.webp',
      screen_url: null,
    });
    const feed = await t.app.inject({ method: 'GET', url: apiUrl(mediaRoutes.feed), headers: bearer(token) });
    const listed = (feed.json().posts as Post[]).find((p) => p.id === id);
    expect(listed?.files[0]?.screen_url).toBeNull();
  }, 60_000);
});
