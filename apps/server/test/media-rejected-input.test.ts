import fs from 'node:fs';
import path from 'node:path';
import { apiUrl, ErrorText, type MediaProcessingEvent, mediaRoutes } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVideo } from '../src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { filesUnder, MEDIA_TEST_ENV, upload } from './media-helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

/**
 * An MP4 whose boxes are intact (ftyp, moov: ffprobe reads a 2 s 320x240 video, so the upload's content
 * check passes) but whose `mdat` payload is zeros: every H.264 sample is refused by the decoder and
 * ffmpeg exits 1. No retry can fix it.
 */
function zeroedMdat(mp4: Buffer): Buffer {
  const out = Buffer.from(mp4);
  let found = false;
  for (let at = 0; at + 8 <= out.length; ) {
    const size = out.readUInt32BE(at);
    if (size < 8) throw new Error(`unexpected box size ${size} at ${at}`);
    if (out.toString('latin1', at + 4, at + 8) === 'mdat') {
      out.fill(0, at + 8, Math.min(out.length, at + size));
      found = true;
    }
    at += size;
  }
  if (!found) throw new Error('no mdat box');
  return out;
}

let t: TestApp;

/** The one job of these kinds failed on its first attempt, ffmpeg's refusal recorded. */
async function failedOnce(kinds: string) {
  const jobs = await t.db.kysely
    .selectFrom('jobs')
    .select(['status', 'attempts', 'last_error'])
    .where('kind', 'like', kinds)
    .execute();
  expect(jobs).toHaveLength(1);
  expect(jobs[0]).toMatchObject({ status: 'failed', attempts: 1 });
  expect(jobs[0]?.last_error).toMatch(/exited with/);
}
let url: string;
let dir: string;
let broken: Buffer;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  dir = tempDir('kadr-rejected-input-');
  const file = await generateVideo(findFfmpeg(), path.join(dir, 'v.mp4'), { seconds: 2 });
  broken = zeroedMdat(fs.readFileSync(file));
  // Media jobs are allowed five attempts: a failure that retrying cannot fix must use only one.
  t = await createTestApp(MEDIA_TEST_ENV);
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a video ffmpeg rejects', () => {
  it('passes the upload check, then fails after one attempt with the Russian reason, leaving no file', async () => {
    const user = await registerUser(t.app);
    const socket = await openSocket(url, user.access_token, sockets);
    const failed = nextEvent<MediaProcessingEvent>(
      socket,
      'media-processing',
      (e) => e.status === 'failed',
      60_000,
    );

    const res = await upload(t.app, user.access_token, [
      { field: 'files', filename: 'clip.mp4', data: broken },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().post.id as number;
    await t.app.ctx.media.jobs.idle();

    // The uploader is told why, in Russian, at once.
    const event = await failed;
    expect(event).toMatchObject({ post_id: id, status: 'failed', reason: ErrorText.mediaUnreadable });

    // The post says so too, for a page that missed the event (it polls the post).
    const post = (
      await t.app.inject({
        method: 'GET',
        url: apiUrl(mediaRoutes.post, { id }),
        headers: bearer(user.access_token),
      })
    ).json().post;
    expect(post.status).toBe('failed');
    expect(post.failure_reason).toBe(ErrorText.mediaUnreadable);

    // One attempt, not five.
    await failedOnce('media.process-%');

    // Nothing of it is kept: not the upload, not a transcoding, not a stored file.
    expect(filesUnder(path.join(t.dataDir, 'tmp'))).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'media'))).toEqual([]);
  }, 120_000);
});

describe('a story video ffmpeg rejects', () => {
  it('fails after one attempt, leaving no file', async () => {
    const user = await registerUser(t.app);
    const res = await upload(
      t.app,
      user.access_token,
      [
        { field: 'file', filename: 'clip.mp4', contentType: 'video/mp4', data: broken },
        { field: 'media_type', data: 'video' },
      ],
      apiUrl(storiesRoutes.upload),
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().story.id as number;
    await t.app.ctx.media.jobs.idle();

    await failedOnce('stories.process');
    const story = await t.db.kysely
      .selectFrom('stories')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(story?.status).toBe('failed');
    expect(filesUnder(path.join(t.dataDir, 'tmp'))).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'media'))).toEqual([]);
  }, 120_000);
});
