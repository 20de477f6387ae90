import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { AuthSession } from '@kadr/contract';
import { apiUrl, mediaRoutes, messengerRoutes, profileRoutes, settingsRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { referencedUrls, sweepOrphans } from '../src/storage/references.ts';
import { s3Storage } from '../src/storage/s3.ts';
import { localStorage, type Storage } from '../src/storage/storage.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { type Fixtures, MEDIA_TEST_ENV, makeFixtures, multipart, publish } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { s3Available, startTestBucket, type TestBucket } from './minio.ts';

/**
 * The storage suite, once on the local disk and once on a real MinIO (scripts/setup-minio.mjs): the Storage
 * contract, media served to browsers, and no file left that nothing references after posts, messages and
 * accounts are deleted.
 */
type Backend = 'local' | 's3';
const backends: Backend[] = ['local', 's3'];

const collect = async (body: Readable | null) => {
  if (!body) return null;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};

const all = async (storage: Storage, prefix = '') => {
  const keys: string[] = [];
  for await (const o of storage.list(prefix)) keys.push(o.key);
  return keys.sort();
};

/** A stream of `size` pseudo-random bytes made chunk by chunk, never held whole. */
function generated(size: number, seed: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(256 * 1024, size - sent);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i += 1) chunk[i] = ((sent + i) * 131 + seed + ((sent + i) >>> 12)) & 255;
      sent += n;
      this.push(chunk);
    },
  });
}

for (const backend of backends) {
  const available = backend === 'local' || s3Available('storage.test.ts (S3 on MinIO)');
  describe.skipIf(!available)(`storage on ${backend}`, () => {
    let bucket: TestBucket | null = null;
    let env: () => Record<string, string> = () => ({});
    let dirs: string[] = [];
    const storageFor = async () => {
      if (backend === 'local') {
        const dir = tempDir('kadr-storage-');
        dirs.push(dir);
        return localStorage(dir);
      }
      const config = loadConfig(env()).s3;
      if (!config) throw new Error('no S3 config');
      return s3Storage(config);
    };

    beforeAll(async () => {
      if (backend === 's3') {
        bucket = await startTestBucket();
        env = () => bucket!.env();
      }
    }, 60_000);
    afterAll(async () => {
      await bucket?.stop();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
      dirs = [];
    });

    describe('the Storage contract', () => {
      it('stores, reads whole and by inclusive range, stats, lists by folder and deletes', async () => {
        const storage = await storageFor();
        const data = Buffer.from('0123456789abcdef');
        await storage.put('media/ab/one.webp', data);
        await storage.put('avatars/cd/two.webp', Buffer.from('x'));
        expect(await collect(await storage.get('media/ab/one.webp'))).toEqual(data);
        expect(
          (await collect(await storage.get('media/ab/one.webp', { start: 2, end: 5 })))?.toString(),
        ).toBe('2345');
        const stat = await storage.stat('media/ab/one.webp');
        expect(stat?.size).toBe(16);
        expect(Math.abs(Date.now() - (stat?.modifiedAt.getTime() ?? 0))).toBeLessThan(120_000);
        expect(await storage.exists('media/ab/one.webp')).toBe(true);
        expect(await all(storage, 'media/')).toEqual(['media/ab/one.webp']);
        expect(await all(storage)).toEqual(['avatars/cd/two.webp', 'media/ab/one.webp']);
        await storage.delete('media/ab/one.webp');
        expect(await storage.exists('media/ab/one.webp')).toBe(false);
        expect(await all(storage, 'media/')).toEqual([]);
      });

      it('answers null for a missing object and succeeds deleting one', async () => {
        const storage = await storageFor();
        expect(await storage.get('media/zz/none.webp')).toBeNull();
        expect(await storage.stat('media/zz/none.webp')).toBeNull();
        await expect(storage.delete('media/zz/none.webp')).resolves.toBeUndefined();
      });

      it('treats a second write of a key as stored, draining the stream it was given', async () => {
        const storage = await storageFor();
        await storage.put('media/ee/same.webp', Buffer.from('same bytes'));
        const again = Readable.from([Buffer.from('same bytes')]);
        await storage.put('media/ee/same.webp', again);
        expect(again.readableEnded || again.destroyed || again.readableFlowing).toBeTruthy();
        expect((await collect(await storage.get('media/ee/same.webp')))?.toString()).toBe('same bytes');
        await Promise.all([
          storage.put('media/ef/race.webp', Buffer.from('r')),
          storage.put('media/ef/race.webp', Buffer.from('r')),
        ]);
        expect(await all(storage, 'media/ef/')).toEqual(['media/ef/race.webp']);
      });

      it('refuses keys that leave the storage root', async () => {
        const storage = await storageFor();
        await expect(storage.put('../escape.webp', Buffer.from('x'))).rejects.toThrow(/escapes/);
        await expect(storage.put('media/../../escape.webp', Buffer.from('x'))).rejects.toThrow(/escapes/);
      });

      it('streams a 40 MB object in (multipart on S3) and reads any range of it back', async () => {
        const storage = await storageFor();
        const size = 40 * 1024 * 1024 + 123;
        await storage.put('media/ff/big.mp4', generated(size, 7));
        expect((await storage.stat('media/ff/big.mp4'))?.size).toBe(size);
        const expected = await collect(generated(size, 7));
        const tail = await collect(
          await storage.get('media/ff/big.mp4', { start: size - 1000, end: size - 1 }),
        );
        expect(tail).toEqual(expected!.subarray(size - 1000));
        const middle = await collect(
          await storage.get('media/ff/big.mp4', { start: 8 * 1024 * 1024 - 10, end: 8 * 1024 * 1024 + 10 }),
        );
        expect(middle).toEqual(expected!.subarray(8 * 1024 * 1024 - 10, 8 * 1024 * 1024 + 11));
      }, 120_000);

      it('maps URLs to keys and back', async () => {
        const storage = await storageFor();
        const url = storage.publicUrl('media/ab/x.webp');
        expect(url).toBe('/files/media/ab/x.webp');
        expect(storage.keyFromUrl(url)).toBe('media/ab/x.webp');
        expect(storage.keyFromUrl('https://elsewhere/x.webp')).toBeNull();
      });
    });

    describe('through the app', () => {
      let t: TestApp;
      let fx: Fixtures;
      let a: AuthSession;
      let b: AuthSession;
      let storage: Storage;
      const m = () => messenger(t.app);

      beforeAll(async () => {
        fx = await makeFixtures();
        t = await createTestApp({ ...MEDIA_TEST_ENV, ...env() });
        storage = t.app.ctx.storage;
        a = await registerUser(t.app);
        b = await registerUser(t.app);
      }, 400_000);
      afterAll(async () => {
        await t?.close();
        if (fx) fs.rmSync(fx.dir, { recursive: true, force: true });
      });

      /** The bytes a browser gets for a /files/ URL, following a redirect to the bucket as browsers do. */
      async function browserGet(url: string, range?: string) {
        const res = await t.app.inject({ method: 'GET', url, headers: range ? { range } : {} });
        if (backend === 'local') {
          return { status: res.statusCode, type: res.headers['content-type'], body: res.rawPayload };
        }
        expect(res.statusCode, res.body).toBe(302);
        const location = String(res.headers.location);
        expect(location.startsWith(bucket!.endpoint)).toBe(true);
        const direct = await fetch(location, { headers: range ? { range } : {} });
        return {
          status: direct.status,
          type: direct.headers.get('content-type') ?? undefined,
          body: Buffer.from(await direct.arrayBuffer()),
        };
      }

      it('serves a post’s video and poster to browsers, with range requests', async () => {
        const post = await publish(t.app, a.access_token, [
          { field: 'files', filename: 'v.mp4', data: fx.video },
        ]);
        const file = post.files[0]!;
        const key = storage.keyFromUrl(file.file_url)!;
        const stored = await collect(await storage.get(key));
        const whole = await browserGet(file.file_url);
        expect(whole.status).toBe(200);
        expect(whole.type).toMatch(/^video\/mp4/);
        expect(whole.body).toEqual(stored);
        const part = await browserGet(file.file_url, 'bytes=100-199');
        expect(part.status).toBe(206);
        expect(part.body).toEqual(stored!.subarray(100, 200));
        const poster = await browserGet(file.thumbnail_url!);
        expect(poster.status).toBe(200);
        expect(poster.type).toMatch(/^image\/webp/);
      }, 400_000);

      it('never serves chat attachments under /files/, only through signed URLs that check the database', async () => {
        const body = multipart([{ field: 'files', filename: 'p.jpg', data: fx.person }]);
        const up = await t.app.inject({
          method: 'POST',
          url: apiUrl(messengerRoutes.attachments),
          headers: { ...body.headers, ...bearer(a.access_token) },
          payload: body.payload,
        });
        expect(up.statusCode, up.body).toBe(200);
        await t.app.ctx.media.jobs.idle();
        const id = up.json().files[0].id as number;
        const sent = await m().send(a.access_token, b.user.id, '', { attachment_ids: [id] });
        expect(sent.statusCode, sent.body).toBe(200);
        const row = await t.db.kysely
          .selectFrom('message_files')
          .select('file_url')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect((await t.app.inject({ method: 'GET', url: row.file_url })).statusCode).toBe(404);
        const signedUrl = sent.json().message.files[0].file_url as string;
        const res = await t.app.inject({
          method: 'GET',
          url: signedUrl,
          headers: { ...bearer(b.access_token), range: 'bytes=0-9' },
        });
        expect(res.statusCode, res.body).toBe(206);
        expect(res.rawPayload).toEqual(
          (await collect(await storage.get(storage.keyFromUrl(row.file_url)!)))!.subarray(0, 10),
        );
      }, 300_000);

      it('leaves no file that nothing references after posts, messages and accounts are deleted', async () => {
        const c = await registerUser(t.app);
        const avatar = (token: string, data: Buffer) => {
          const body = multipart([{ field: 'file', filename: 'a.jpg', data }]);
          return t.app.inject({
            method: 'POST',
            url: apiUrl(profileRoutes.avatar),
            headers: { ...body.headers, ...bearer(token) },
            payload: body.payload,
          });
        };
        expect((await avatar(c.access_token, fx.night)).statusCode).toBe(200);
        // The same bytes in two accounts' posts: one stored file, kept while either post exists.
        const shared = await publish(t.app, c.access_token, [
          { field: 'files', filename: 'b.jpg', data: fx.bright },
        ]);
        const kept = await publish(t.app, b.access_token, [
          { field: 'files', filename: 'b.jpg', data: fx.bright },
        ]);
        expect(shared.files[0]!.file_url).toBe(kept.files[0]!.file_url);
        const own = await publish(t.app, c.access_token, [
          { field: 'files', filename: 'e.jpg', data: fx.exif },
        ]);
        const attach = multipart([{ field: 'files', filename: 'n.jpg', data: fx.night }]);
        const up = await t.app.inject({
          method: 'POST',
          url: apiUrl(messengerRoutes.attachments),
          headers: { ...attach.headers, ...bearer(c.access_token) },
          payload: attach.payload,
        });
        expect(up.statusCode, up.body).toBe(200);
        await t.app.ctx.media.jobs.idle();
        const sent = await m().send(c.access_token, b.user.id, 'фото', {
          attachment_ids: [up.json().files[0].id as number],
        });
        expect(sent.statusCode, sent.body).toBe(200);
        const ownKeys = [own.files[0]!.file_url, own.files[0]!.thumbnail_url!, own.files[0]!.screen_url!].map(
          (u) => storage.keyFromUrl(u)!,
        );
        for (const k of ownKeys) expect(await storage.exists(k)).toBe(true);

        // A post deleted: its files go at once (nothing else names them).
        const del = await t.app.inject({
          method: 'DELETE',
          url: apiUrl(mediaRoutes.remove, { id: own.id }),
          headers: bearer(c.access_token),
        });
        expect(del.statusCode).toBe(200);
        for (const k of ownKeys) expect(await storage.exists(k)).toBe(false);
        // A message deleted for everyone, then the whole account.
        const gone = await m().call(
          c.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: sent.json().message.id }, { for: 'everyone' }),
        );
        expect(gone.statusCode, gone.body).toBe(200);
        const bye = await t.app.inject({
          method: 'POST',
          url: apiUrl(settingsRoutes.deleteAccount),
          headers: bearer(c.access_token),
          payload: { password: 'correct horse' },
        });
        expect(bye.statusCode, bye.body).toBe(200);

        // The durable sweep (media.sweep job) — here without its grace period, which protects uploads in flight.
        await t.app.ctx.media.jobs.idle();
        await sweepOrphans(t.db.kysely, storage, { graceMs: 0 });
        const keys = await all(storage);
        const urls = keys.map((k) => storage.publicUrl(k));
        const used = await referencedUrls(t.db.kysely, urls);
        expect(urls.filter((u) => !used.has(u))).toEqual([]);
        // What other accounts still use stays, whoever uploaded it first.
        expect(await storage.exists(storage.keyFromUrl(kept.files[0]!.file_url)!)).toBe(true);
        expect(await storage.exists(storage.keyFromUrl(kept.files[0]!.screen_url!)!)).toBe(true);
        expect(keys.length).toBeGreaterThan(0);
      }, 400_000);
    });
  });
}

describe('S3 configuration', () => {
  it('is off without S3_BUCKET, and refuses S3 settings without a bucket', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET/);
  });

  it('reads the bucket, endpoint, keys and path style, and checks them', () => {
    const s3 = loadConfig({
      S3_BUCKET: 'kadr-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    }).s3;
    expect(s3).toMatchObject({
      bucket: 'kadr-media',
      forcePathStyle: true,
      region: 'us-east-1',
      keyPrefix: '',
    });
    expect(loadConfig({ S3_BUCKET: 'kadr-media' }).s3?.forcePathStyle).toBe(false);
    expect(() => loadConfig({ S3_BUCKET: 'Bad_Bucket' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: 'kadr-media', S3_ACCESS_KEY_ID: 'k' })).toThrow(/together/);
    expect(() => loadConfig({ S3_BUCKET: 'kadr-media', S3_KEY_PREFIX: 'no-slash' })).toThrow(/S3_KEY_PREFIX/);
  });

  it('lets the browser load media from the bucket under the content security policy', async () => {
    const { securityHeaders } = await import('../src/plugins/security-headers.ts');
    const csp = securityHeaders(
      loadConfig({ S3_BUCKET: 'kadr-media', S3_PUBLIC_ENDPOINT: 'https://media.example/x' }),
    )['content-security-policy'];
    expect(csp).toMatch(/img-src 'self' data: blob: https:\/\/media\.example;/);
    expect(csp).toMatch(/media-src 'self' blob: https:\/\/media\.example;/);
  });
});
