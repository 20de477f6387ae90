import type { AuthSession, MessageEvent, SendMessageBody, SendMessageResult } from '@kadr/contract';
import { apiUrl, authRoutes, ErrorText, messengerRoutes, PAGE_HEADER } from '@kadr/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, countRows, createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let m: ReturnType<typeof messenger>;
let a: AuthSession;
let b: AuthSession;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  m = messenger(t.app);
});
afterAll(() => t.close());
beforeEach(async () => {
  a = await registerUser(t.app);
  b = await registerUser(t.app);
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});

const device = (token: string) => openSocket(url, token, open);

/** A socket opened by the web app's page `page` (its handshake names it). */
const pageDevice = (token: string, page: string) => openSocket(url, token, open, { page });

const send = (s: ClientSocket, body: unknown) =>
  new Promise<SendMessageResult>((resolve) => s.emit('send-message', body as SendMessageBody, resolve));

/**
 * Every `new-message` a socket gets from now on; `until(ms)` answers them once `ms` have passed after it is
 * called (after the sends settled: a send that takes longer on a busy machine never outruns the window).
 */
function collect(s: ClientSocket) {
  const got: MessageEvent[] = [];
  s.on('new-message', (e) => got.push(e));
  return {
    until: (quietMs = 400) =>
      new Promise<MessageEvent[]>((resolve) => setTimeout(() => resolve(got), quietMs)),
  };
}

const storedCount = () => countRows(t.db, 'messages');

describe('send-message over the socket', () => {
  it('stores and announces like POST /messages; the temp_id goes to the sender only', async () => {
    const [a1, a2, b1] = await Promise.all([
      device(a.access_token),
      device(a.access_token),
      device(b.access_token),
    ]);
    const atA1 = collect(a1);
    const atA2 = collect(a2);
    const atB1 = collect(b1);
    const result = await send(a1, { other_user_id: b.user.id, content: '  по сокету  ', temp_id: 'sock-1' });
    if (!result.ok) throw new Error(result.error);
    expect(result.message).toMatchObject({
      sender_id: a.user.id,
      sender_username: a.user.username,
      sender_name: a.user.name,
      content: 'по сокету',
      temp_id: 'sock-1',
      is_read: false,
      is_delivered: false,
      message_type: 'text',
      files: [],
    });
    const [sending, mine, theirs] = await Promise.all([atA1.until(), atA2.until(), atB1.until()]);
    // The sending socket has the message in its ack; the sender's other devices hear it.
    expect(sending).toEqual([]);
    expect(mine.map((e) => e.message)).toEqual([result.message]);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]?.chat).toEqual({ type: 'personal', user_id: a.user.id, is_favorites: false });
    const { temp_id: _temp, ...bare } = result.message;
    expect(theirs[0]?.message).toEqual(bare);
    // The HTTP history shows the same message.
    const history = await m.conversation(b.access_token, a.user.id);
    expect(history.messages.map((x) => x.id)).toEqual([result.message.id]);
  });

  it('over HTTP from a page: that page’s socket is not told again; the sender’s other pages and the peer are', async () => {
    // Each page's socket names its page in the handshake, as the web app does; the page's writes name it too.
    const [pageA1, pageA2, pageB1] = ['page-a-one', 'page-a-two', 'page-b-one'];
    const [a1, a2, b1] = await Promise.all([
      pageDevice(a.access_token, pageA1),
      pageDevice(a.access_token, pageA2),
      pageDevice(b.access_token, pageB1),
    ]);
    const [atA1, atA2, atB1] = [collect(a1), collect(a2), collect(b1)];
    // Over the wire, as a browser sends it (the page header through Node's own parser).
    const post = async (page: string, temp_id: string) => {
      const res = await fetch(`${url}${apiUrl(messengerRoutes.send)}`, {
        method: 'POST',
        headers: { ...bearer(a.access_token), [PAGE_HEADER]: page, 'content-type': 'application/json' },
        body: JSON.stringify({ other_user_id: b.user.id, content: 'со страницы', temp_id }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { message: { id: number } }).message.id;
    };
    const first = await post(pageA1, 'page-1');
    // Naming the peer's page does not keep the message from the peer: only the sender's own sockets are looked at.
    const second = await post(pageB1, 'page-2');
    const [sending, other, peer] = await Promise.all([atA1.until(), atA2.until(), atB1.until()]);
    const ids = (events: MessageEvent[]) => events.map((e) => e.message.id);
    expect(ids(sending)).toEqual([second]);
    expect(ids(other)).toEqual([first, second]);
    expect(ids(peer)).toEqual([first, second]);
  });

  it('is idempotent on temp_id, shared with HTTP, even for twins in one batch', async () => {
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    const atB = collect(b1);
    const before = await storedCount();
    const body = { other_user_id: b.user.id, content: 'один раз', temp_id: 'twin-1' };
    // Emitted together they reach the server in one tick and share one insert batch.
    const [first, second] = await Promise.all([send(a1, body), send(a1, body)]);
    const http = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), body);
    const again = await send(a1, body);
    if (!first.ok || !second.ok || !again.ok) throw new Error('send refused');
    expect(second.message.id).toBe(first.message.id);
    expect(again.message.id).toBe(first.message.id);
    expect(http.json().message.id).toBe(first.message.id);
    expect(await storedCount()).toBe(before + 1);
    expect((await atB.until(600)).map((e) => e.message.id)).toEqual([first.message.id]);
  });

  it('keeps the HTTP rules: empty text, unknown users and bad bodies are refused and store nothing', async () => {
    const a1 = await device(a.access_token);
    const before = await storedCount();
    expect(await send(a1, { other_user_id: b.user.id, content: '   ', temp_id: 'e-1' })).toEqual({
      ok: false,
      status: 400,
      error: ErrorText.messageEmpty,
      code: 'validation_failed',
      fields: { content: ErrorText.messageEmpty },
    });
    expect(await send(a1, { other_user_id: 2_000_000_000, content: 'кому?', temp_id: 'e-2' })).toMatchObject({
      ok: false,
      status: 404,
      error: ErrorText.userNotFound,
    });
    const bad = [
      { other_user_id: b.user.id, content: 'x', temp_id: 'с пробелом' },
      { other_user_id: b.user.id, content: 'x', temp_id: 'e-3', extra: true },
      { other_user_id: b.user.id, content: 'x'.repeat(5000), temp_id: 'e-4' },
      { content: 'x', temp_id: 'e-5' },
      'not an object',
    ];
    for (const body of bad)
      expect(await send(a1, body)).toMatchObject({ ok: false, status: 400, code: 'validation_failed' });
    expect(await send(a1, { content: 'x', temp_id: 'e-6' })).toMatchObject({
      fields: { other_user_id: ErrorText.validationFailed },
    });
    expect(await storedCount()).toBe(before);
  });

  it('needs the session to still be active: after logout the same socket is dropped and cannot send', async () => {
    const a1 = await device(a.access_token);
    const dropped = new Promise<void>((resolve) => a1.once('disconnect', () => resolve()));
    const before = await storedCount();
    const res = await t.app.inject({
      method: 'POST',
      url: apiUrl(authRoutes.logout),
      headers: bearer(a.access_token),
    });
    expect(res.statusCode).toBeLessThan(300);
    // Ending the session disconnects its sockets (ARCHITECTURE: sessions end everywhere).
    await dropped;
    expect(a1.connected).toBe(false);
    a1.emit(
      'send-message',
      { other_user_id: b.user.id, content: 'после выхода', temp_id: 'gone-1' },
      () => undefined,
    );
    expect(await storedCount()).toBe(before);
  });
});
