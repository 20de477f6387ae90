import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, messengerRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepMedia } from '../src/modules/media/sweeps.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import {
  type Fixtures,
  filesUnder,
  MEDIA_TEST_ENV,
  makeFixtures,
  multipart,
  publish,
} from './media-helpers.ts';

let t: TestApp;
let fx: Fixtures;
let user: AuthSession;
let strayRoot: string;

const DAY = 24 * 60 * 60 * 1000;
const age = (file: string, ms: number) => {
  const at = new Date(Date.now() - ms);
  fs.utimesSync(file, at, at);
};

beforeAll(async () => {
  fx = await makeFixtures();
  // What a kill -9 mid-upload leaves: an upload directory no job owns.
  strayRoot = tempDir('kadr-sweep-data-');
  const stray = path.join(strayRoot, 'tmp', 'upload-dead');
  fs.mkdirSync(stray, { recursive: true });
  fs.writeFileSync(path.join(stray, '0'), Buffer.alloc(1000));
  age(stray, DAY);
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    DATA_DIR: strayRoot,
    UPLOADS_IN_FLIGHT_PER_USER: '1',
    MEDIA_MAX_VIDEO_BYTES: '400000',
    MEDIA_MAX_IMAGE_BYTES: '200000',
    MEDIA_MAX_CAROUSEL_IMAGES: '2',
  });
  user = await registerUser(t.app);
}, 240_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(strayRoot, { recursive: true, force: true });
  fs.rmSync(fx.dir, { recursive: true, force: true });
});

const media = () => path.join(strayRoot, 'media');

describe('disk before validation', () => {
  it('cleans upload directories left by a crash at start', () => {
    expect(filesUnder(path.join(strayRoot, 'tmp'))).toEqual([]);
  });

  it('refuses a body larger than any accepted upload before writing it', async () => {
    const body = multipart([{ field: 'files', filename: 'big.jpg', data: Buffer.alloc(1_500_000, 1) }]);
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(mediaRoutes.upload),
      headers: { ...body.headers, ...bearer(user.access_token) },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(filesUnder(path.join(strayRoot, 'tmp'))).toEqual([]);
  });

  it('bounds the uploads one user has in flight: the rest get 429, never 5xx', async () => {
    const body = multipart([{ field: 'file', filename: 'a.jpg', data: fx.bright }]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({
          method: 'POST',
          url: apiUrl(profileRoutes.avatar),
          headers: { ...body.headers, ...bearer(user.access_token) },
          payload: body.payload,
        }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
    expect(answers.find((r) => r.statusCode === 429)?.headers['retry-after']).toBeDefined();
  }, 60_000);
});

describe('files nobody references', () => {
  it('sweeps unsent attachments after 24 h and orphaned files, keeping what is referenced', async () => {
    const other = await registerUser(t.app);
    const post = await publish(t.app, other.access_token, [
      { field: 'files', filename: 'n.jpg', data: fx.night },
    ]);
    const body = multipart([{ field: 'files', filename: 'p.jpg', data: fx.person }]);
    const up = await t.app.inject({
      method: 'POST',
      url: apiUrl(messengerRoutes.attachments),
      headers: { ...body.headers, ...bearer(other.access_token) },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    await t.app.ctx.media.jobs.idle();
    const fileId = up.json().files[0].id as number;
    const row = await t.db.kysely
      .selectFrom('message_files')
      .select(['file_url', 'thumbnail_url'])
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    const attachmentFile = path.join(media(), row.file_url.replace(/^\/files\//, ''));
    expect(fs.existsSync(attachmentFile)).toBe(true);

    // A file on disk that nothing names (a failed job's output, a crash between store and commit).
    const orphan = path.join(media(), 'media', 'zz', 'orphan.webp');
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    fs.writeFileSync(orphan, 'x');
    for (const f of filesUnder(media())) age(f, 2 * 60 * 60 * 1000);
    await t.db.kysely
      .updateTable('message_files')
      .set({ created_at: new Date(Date.now() - DAY - 60_000) })
      .where('id', '=', fileId)
      .execute();

    const swept = await sweepMedia(t.db.kysely, t.app.ctx.storage, path.join(strayRoot, 'tmp'));
    expect(swept.unsent).toBe(1);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(attachmentFile)).toBe(false);
    // The post's files and the avatars stay: rows name them.
    const postFile = path.join(media(), post.files[0]!.file_url.replace(/^\/files\//, ''));
    const screenFile = path.join(media(), post.files[0]!.screen_url!.replace(/^\/files\//, ''));
    expect(fs.existsSync(postFile)).toBe(true);
    expect(fs.existsSync(screenFile)).toBe(true);
    const me = await t.db.kysely
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(fs.existsSync(path.join(media(), me.avatar_url!.replace(/^\/files\//, '')))).toBe(true);

    // Deleting the post removes its files: nothing else names them.
    const del = await t.app.inject({
      method: 'DELETE',
      url: apiUrl(mediaRoutes.remove, { id: post.id }),
      headers: bearer(other.access_token),
    });
    expect(del.statusCode).toBe(200);
    expect(fs.existsSync(postFile)).toBe(false);
    expect(fs.existsSync(screenFile)).toBe(false);
  }, 120_000);
});
