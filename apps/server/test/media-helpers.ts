import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Post } from '@kadr/contract';
import { apiUrl, mediaRoutes } from '@kadr/contract';
import { expect } from 'vitest';
import type { App } from '../src/app-types.ts';
import type { Db } from '../src/db/database.ts';
import type { Database } from '../src/db/schema.ts';
import { cpuCgroupOf, MEDIA_CGROUP } from '../src/lib/media-cgroup.ts';
import {
  brightImage,
  generateVideo,
  imageWithExif,
  nightImage,
  personImage,
} from '../src/modules/media/demo/generate.ts';
import { findFfmpeg } from '../src/modules/media/processing/ffmpeg.ts';
import { bearer, countRows, tempDir } from './helpers.ts';

export interface Part {
  field: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, so a test controls names and declared types exactly. */
/** Files as the `files` parts of an upload form. */
export const fileParts = (files: { name: string; data: Buffer }[]): Part[] =>
  files.map((f) => ({ field: 'files', filename: f.name, data: f.data }));

export function multipart(parts: Part[]) {
  const boundary = `----kadr${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.field}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${
      p.filename ? `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n` : ''
    }\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export interface Fixtures {
  dir: string;
  video: Buffer;
  darkVideo: Buffer;
  bright: Buffer;
  night: Buffer;
  person: Buffer;
  exif: Buffer;
}

/** Generates the test media once per file (ffmpeg testsrc / sine, sharp SVG). */
export async function makeFixtures(): Promise<Fixtures> {
  const dir = tempDir('kadr-media-fixtures-');
  const bins = findFfmpeg();
  const video = await generateVideo(bins, path.join(dir, 'v.mp4'), { seconds: 2 });
  const dark = await generateVideo(bins, path.join(dir, 'd.mp4'), { seconds: 3, look: 'dark-calm' });
  return {
    dir,
    video: fs.readFileSync(video),
    darkVideo: fs.readFileSync(dark),
    bright: await brightImage(),
    night: await nightImage(),
    person: await personImage(),
    exif: await imageWithExif(),
  };
}

/** A multipart upload to a post (default) or any other upload route, e.g. `apiUrl(storiesRoutes.upload)`. */
export async function upload(
  app: App,
  token: string | null,
  parts: Part[],
  url = apiUrl(mediaRoutes.upload),
) {
  const body = multipart(parts);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...body.headers, ...(token ? bearer(token) : {}) },
    payload: body.payload,
  });
}

/** Uploads and waits for the worker to finish; returns the finished post. */
export async function publish(app: App, token: string, parts: Part[]): Promise<Post> {
  const res = await upload(app, token, parts);
  if (res.statusCode !== 202) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  const { post } = res.json() as { post: Post };
  await app.ctx.media.jobs.idle();
  const done = await app.inject({
    method: 'GET',
    url: apiUrl(mediaRoutes.post, { id: post.id }),
    headers: bearer(token),
  });
  return (done.json() as { post: Post }).post;
}

/** Rows of a table; for `jobs`, without the scheduled upkeep jobs (always one pending of each). */
export async function count(db: Db, table: keyof Database): Promise<number> {
  if (table !== 'jobs') return countRows(db, table);
  const row = await db.kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', 'not in', ['jobs.prune', 'media.sweep'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every file under a directory (recursively). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export const MEDIA_TEST_ENV = { JOBS_POLL_MS: '50', JOBS_BACKOFF_MS: '50', AUTH_RATE_LIMIT_PER_IP: '1000' };

/**
 * Whether this machine lets the server make the idle media cgroup: root with cgroup v1's cpu controller (as CI
 * runs). Decided from the machine, not from the code under test, so a broken set-up fails here.
 */
export const idleCgroupHere = (() => {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const own = cpuCgroupOf('self');
  return own !== null && fs.existsSync(path.join(own, 'cpu.shares')) && own.startsWith('/sys/fs/cgroup/');
})();

/** The idle media cgroup: its directory under the test process's own, and that it is marked idle. */
export function expectInIdleMediaCgroup(dir: string | null) {
  expect(dir).toBe(path.join(cpuCgroupOf('self') ?? '', MEDIA_CGROUP));
  expect(fs.readFileSync(path.join(dir ?? '', 'cpu.idle'), 'utf8').trim()).toBe('1');
}

/** Whether a process still runs (a signal 0 reaches it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let readyPostSeq = 0;
/**
 * A finished photo post of `userId` written straight through the media service (no upload, no processing):
 * for tests about who sees a post, not how it is made. `tags` and `description` stand for the tagger's.
 */
export function readyPhotoPost(
  app: App,
  userId: number,
  caption: string,
  { tags = [] as string[], description = '' } = {},
): Promise<number> {
  readyPostSeq += 1;
  return app.ctx.media.publishReady({
    userId,
    caption,
    mediaType: 'photo',
    createdAt: new Date(),
    tags,
    forSleep: tags.includes('for_sleep'),
    calmScore: 0.5,
    description,
    provider: 'test',
    model: 'test',
    files: [
      {
        file_type: 'image',
        file_url: `/media/ready-${readyPostSeq}.webp`,
        thumbnail_url: `/media/ready-${readyPostSeq}-t.webp`,
        width: 10,
        height: 10,
        duration: null,
      },
    ],
  });
}
