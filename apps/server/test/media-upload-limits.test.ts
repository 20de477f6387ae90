import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS } from '../src/lib/images.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { count, filesUnder, MEDIA_TEST_ENV, multipart } from './media-helpers.ts';

let t: TestApp;
let user: AuthSession;
const MAX_IMAGE = 200_000;

/**
 * A decompression bomb: a valid 1-bit PNG of 10,000 × 10,000 (100 Mpx, twice the cap) that is a few KB
 * on disk, its rows all zero.
 */
function hugePng(side = 10_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  t = await createTestApp({
    ...MEDIA_TEST_ENV,
    JOBS_WORKER: 'false',
    MEDIA_MAX_IMAGE_BYTES: String(MAX_IMAGE),
    MEDIA_MAX_VIDEO_BYTES: String(MAX_IMAGE),
  });
  user = await registerUser(t.app);
}, 120_000);
afterAll(() => t?.close());

const tempFiles = () => filesUnder(path.join(t.dataDir, 'tmp'));

function post(url: string, field: string, data: Buffer, filename = 'big.png') {
  const body = multipart([{ field, filename, contentType: 'image/png', data }]);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...body.headers, ...bearer(user.access_token) },
    payload: body.payload,
  });
}

describe('decoded pixel cap', () => {
  const bomb = hugePng();

  it(`the test image is small on disk and past ${MAX_INPUT_PIXELS / 1e6} Mpx`, async () => {
    expect(bomb.length).toBeLessThan(MAX_IMAGE);
    const sharp = (await import('sharp')).default;
    const meta = await sharp(bomb).metadata();
    expect(meta.width! * meta.height!).toBeGreaterThan(MAX_INPUT_PIXELS);
  });

  it('a post upload of it is refused at upload with a 4xx; no post, no job, no temp file', async () => {
    const before = await count(t.db, 'posts');
    const res = await post(apiUrl(mediaRoutes.upload), 'files', bomb);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    expect(await count(t.db, 'posts')).toBe(before);
    expect(tempFiles()).toEqual([]);
  });

  it('an avatar of it is refused with a 4xx and the avatar is unchanged', async () => {
    const res = await post(apiUrl(profileRoutes.avatar), 'file', bomb);
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const me = await t.db.kysely
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(me.avatar_url).toBeNull();
  });
});

describe('size limit while streaming', () => {
  it('a post upload past the size limit is cut off with 413 and leaves no temp file', async () => {
    const res = await post(apiUrl(mediaRoutes.upload), 'files', Buffer.alloc(MAX_IMAGE * 3, 7), 'big.jpg');
    expect(res.statusCode, res.body).toBe(413);
    expect(tempFiles()).toEqual([]);
  });

  it('an upload whose client goes away mid-stream leaves no temp file', async () => {
    const url = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const boundary = 'kadrboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="cut.jpg"\r\n` +
        'Content-Type: image/jpeg\r\n\r\n',
    );
    const socket = net.connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST ${apiUrl(mediaRoutes.upload)} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${user.access_token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${MAX_IMAGE}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(Buffer.alloc(MAX_IMAGE / 4, 0xff));
    // Wait until the server has started writing the part to disk, then drop the connection.
    const until = Date.now() + 10_000;
    while (tempFiles().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(tempFiles().length).toBeGreaterThan(0);
    socket.destroy();
    const deadline = Date.now() + 10_000;
    while (tempFiles().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tempFiles()).toEqual([]);
  });
});
