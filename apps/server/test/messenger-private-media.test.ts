import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession, Message } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { filesUnder, MEDIA_TEST_ENV, multipart, publish } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';

let t: TestApp;
let m: ReturnType<typeof messenger>;
let a: AuthSession;
let b: AuthSession;
let stranger: AuthSession;

beforeAll(async () => {
  t = await createTestApp(MEDIA_TEST_ENV);
  m = messenger(t.app);
  [a, b, stranger] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
}, 240_000);
afterAll(async () => {
  await t?.close();
});

const photo = (seed: number) =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r: seed, g: 90, b: 200 } } })
    .png()
    .toBuffer();

async function attach(token: string, data: Buffer) {
  const body = multipart([{ field: 'files', filename: 'p.png', contentType: 'image/png', data }]);
  const res = await t.app.inject({
    method: 'POST',
    url: apiUrl(messengerRoutes.attachments),
    headers: { ...body.headers, ...bearer(token) },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  // Media attachments are processed by the job queue; wait for it so the message carries the files.
  await t.app.ctx.media.jobs.idle();
  return res.json().files[0] as { id: number };
}

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...headers, ...(token ? bearer(token) : {}) } });

const messagesDir = () => path.join(t.dataDir, 'media', 'messages');

describe('private chat media', () => {
  it('an attachment is served only through a signed URL, privately, and not after delete-for-everyone', async () => {
    const file = await attach(a.access_token, await photo(10));
    const sent = await m.send(a.access_token, b.user.id, '', { attachment_ids: [file.id] });
    expect(sent.statusCode, sent.body).toBe(200);
    const message = sent.json().message as Message;
    const url = message.files[0]!.file_url;
    const thumb = message.files[0]!.thumbnail_url!;
    expect(url).toMatch(/^\/api\/v1\/messages\/files\/\d+\?e=\d+&s=/);

    // The member loads it; the answer may only sit in the member's own browser cache.
    const seen = (await m.conversation(b.access_token, a.user.id)).messages[0]!.files[0]!;
    const ok = await get(seen.file_url, b.access_token);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/webp');
    expect(ok.headers['cache-control']).toMatch(/^private/);
    expect((await get(seen.thumbnail_url!)).statusCode).toBe(200);
    const part = await get(seen.file_url, undefined, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(10);

    // The stored path is not public any more, and a forged or altered signature opens nothing.
    const stored = filesUnder(messagesDir()).map(
      (f) => `/files/${path.relative(path.join(t.dataDir, 'media'), f)}`,
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const p of stored) expect((await get(p, stranger.access_token)).statusCode).toBe(404);
    expect((await get(url.replace(/s=[^&]+/, 's=AAAA'), stranger.access_token)).statusCode).toBe(403);
    const other = url.replace(/files\/(\d+)/, (_, id) => `files/${Number(id) + 1000}`);
    expect([403, 404]).toContain((await get(other, stranger.access_token)).statusCode);
    expect((await get(url.replace(/e=\d+/, 'e=1'))).statusCode).toBe(403);

    // Deleted for everyone: unreachable at once, for the owner too, and the file is gone from disk.
    const del = await m.call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: message.id }, { for: 'everyone' }),
    );
    expect(del.statusCode).toBe(200);
    expect((await get(url, a.access_token)).statusCode).toBe(404);
    expect((await get(thumb, a.access_token)).statusCode).toBe(404);
    expect(filesUnder(messagesDir())).toEqual([]);
  }, 60_000);

  it('a forwarded attachment keeps its file until the last message naming it goes', async () => {
    const file = await attach(a.access_token, await photo(20));
    const sent = (await m.send(a.access_token, b.user.id, '', { attachment_ids: [file.id] })).json()
      .message as Message;
    const fwd = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [sent.id],
      targets: [{ chat_user_id: stranger.user.id }],
    });
    expect(fwd.statusCode, fwd.body).toBe(200);
    const copy = (fwd.json().messages as Message[])[0]!;
    await m.call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: sent.id }, { for: 'everyone' }),
    );
    expect((await get(copy.files[0]!.file_url, stranger.access_token)).statusCode).toBe(200);
    expect(filesUnder(messagesDir()).length).toBe(2);
    await m.call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: copy.id }, { for: 'everyone' }),
    );
    expect(filesUnder(messagesDir())).toEqual([]);
  }, 60_000);

  it('post media stays public and cacheable', async () => {
    const post = await publish(t.app, a.access_token, [
      { field: 'files', filename: 'x.png', contentType: 'image/png', data: await photo(30) },
    ]);
    const res = await get(post.files[0]!.file_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/public/);
    expect(res.headers['cache-control']).toMatch(/immutable/);
  }, 60_000);
});

afterAll(() => {
  if (t) fs.rmSync(t.dataDir, { recursive: true, force: true });
});
