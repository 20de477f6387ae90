import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import {
  type AuthSession,
  apiUrl,
  type ChatListItem,
  messengerRoutes,
  profileRoutes,
  settingsRoutes,
} from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

/**
 * The list's start goes out as bytes stored with the cached page (and their brotli/gzip copies): a
 * repeat read sends the same bytes, and every change that alters what the viewer sees drops them — also
 * the privacy of a peer's last seen, which is applied before the bytes are stored.
 */
describe('the chat list’s start is served as stored bytes, dropped with the cached page', () => {
  let t: TestApp;
  let a: AuthSession;
  let b: AuthSession;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', FEED_CACHE_TTL_MS: '600000' });
    a = await registerUser(t.app, undefined, 'Анна');
    b = await registerUser(t.app, undefined, 'Борис');
    const sent = await t.app.inject({
      method: 'POST',
      url: apiUrl(messengerRoutes.send),
      headers: bearer(b.access_token),
      payload: { other_user_id: a.user.id, content: 'привет', temp_id: `t-${randomUUID()}` },
    });
    expect(sent.statusCode).toBe(200);
    // B was last seen a minute ago (written before any list is cached).
    await sql`update users set last_seen = now() - interval '1 minute' where id = ${b.user.id}`.execute(
      t.app.ctx.db.kysely,
    );
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const page = (token: string, encoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: apiUrl(messengerRoutes.chats, undefined, { limit: 50 }),
      headers: { ...bearer(token), ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });
  const call = (token: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** B's row on A's list, read three ways that must agree: plain, brotli and the unpaged list. */
  async function peerOnA(): Promise<ChatListItem | undefined> {
    const plain = await page(a.access_token, 'identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await page(a.access_token, 'gzip, br');
    expect(br.statusCode).toBe(200);
    if (plain.rawPayload.length >= 1024) {
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    } else expect(br.body).toBe(plain.body);
    const all = await t.app.inject({
      method: 'GET',
      url: apiUrl(messengerRoutes.chats),
      headers: bearer(a.access_token),
    });
    const chats = (plain.json() as { chats: ChatListItem[] }).chats;
    expect((all.json() as { chats: ChatListItem[] }).chats).toEqual(chats);
    return chats.find((c) => c.type === 'personal' && c.user_id === b.user.id);
  }

  it('answers a repeat read with the same bytes, compressed once for a client that accepts it', async () => {
    const first = await page(a.access_token);
    const again = await page(a.access_token);
    expect(first.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(first.json()).toMatchObject({ has_more: false });
    // A long list is worth compressing: brotli of exactly the stored JSON.
    for (let i = 0; i < 12; i += 1) {
      const peer = await registerUser(t.app, undefined, `Собеседник ${i}`);
      const r = await call(peer.access_token, 'POST', apiUrl(messengerRoutes.send), {
        other_user_id: a.user.id,
        content: `сообщение ${i}`,
        temp_id: `t-${randomUUID()}`,
      });
      expect(r.statusCode).toBe(200);
    }
    const plain = await page(a.access_token);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await page(a.access_token, 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await page(a.access_token, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    // A write behind the services' backs is not seen: the bytes are the stored ones.
    await sql`update users set name = 'Тайно' where id = ${b.user.id}`.execute(t.app.ctx.db.kysely);
    expect((await page(a.access_token)).rawPayload.equals(plain.rawPayload)).toBe(true);
    await sql`update users set name = 'Борис' where id = ${b.user.id}`.execute(t.app.ctx.db.kysely);
  });

  it('drops the stored bytes when the peer’s last seen privacy, blocks or follows change', async () => {
    expect((await peerOnA())?.last_seen).not.toBeNull();

    const privacy = (last_seen: string) =>
      call(b.access_token, 'PATCH', apiUrl(settingsRoutes.update), { privacy: { last_seen } });
    expect((await privacy('nobody')).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).toBeNull();
    expect((await privacy('everyone')).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).not.toBeNull();

    // Only people B follows see it: A once B follows A, and no longer once B stops.
    expect((await privacy('following')).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).toBeNull();
    const follow = apiUrl(profileRoutes.follow, { username: a.user.username });
    expect((await call(b.access_token, 'POST', follow)).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).not.toBeNull();
    expect((await call(b.access_token, 'DELETE', follow)).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).toBeNull();

    // A blocked viewer does not see it either.
    expect((await privacy('everyone')).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).not.toBeNull();
    const block = apiUrl(settingsRoutes.block, { username: a.user.username });
    expect((await call(b.access_token, 'POST', block)).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).toBeNull();
    expect((await call(b.access_token, 'DELETE', block)).statusCode).toBe(200);
    expect((await peerOnA())?.last_seen).not.toBeNull();
  });

  it('drops them with the page on a message, a read, a rename and a pin', async () => {
    const before = (await peerOnA()) as ChatListItem;
    const sent = await call(b.access_token, 'POST', apiUrl(messengerRoutes.send), {
      other_user_id: a.user.id,
      content: 'ещё одно',
      temp_id: `t-${randomUUID()}`,
    });
    expect(sent.statusCode).toBe(200);
    const after = (await peerOnA()) as ChatListItem;
    expect(after.last_message?.content).toBe('ещё одно');
    expect(after.unread_count).toBe(before.unread_count + 1);

    const read = await call(a.access_token, 'POST', apiUrl(messengerRoutes.read), {
      other_user_id: b.user.id,
    });
    expect(read.statusCode).toBe(200);
    expect((await peerOnA())?.unread_count).toBe(0);

    expect(
      (await call(b.access_token, 'PATCH', apiUrl(profileRoutes.update), { name: 'Борис Б.' })).statusCode,
    ).toBe(200);
    expect((await peerOnA())?.username).toBe('Борис Б.');

    const pin = await call(a.access_token, 'POST', apiUrl(messengerRoutes.pin), { chat_user_id: b.user.id });
    expect(pin.statusCode).toBe(200);
    expect((await peerOnA())?.is_pinned).toBe(true);
  });
});
