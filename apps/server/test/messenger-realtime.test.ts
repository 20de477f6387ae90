import type {
  AuthSession,
  MessageDeletedEvent,
  MessageDeliveredEvent,
  MessageEvent,
  MessagesReadEvent,
  OnlineEvent,
  ServerToClientEvents,
  TypingEvent,
} from '@kadr/contract';
import { apiUrl, messengerRoutes, settingsRoutes } from '@kadr/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultLimits } from '../src/lib/limits.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let m: ReturnType<typeof messenger>;
let a: AuthSession;
let b: AuthSession;
let bystander: AuthSession;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  m = messenger(t.app);
  bystander = await registerUser(t.app);
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

function next<T>(s: ClientSocket, event: keyof ServerToClientEvents, timeoutMs = 4000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    s.once(event, ((payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    }) as never);
  });
}

/** Counts `event` on a socket from now on. Read it after `markerTo` has arrived, never after a sleep. */
function record(s: ClientSocket, event: keyof ServerToClientEvents) {
  const seen = { count: 0 };
  s.on(event, () => {
    seen.count += 1;
  });
  return seen;
}

/**
 * A message from a bystander to the device's user, awaited on the device: one node emits in order over one
 * connection, so anything emitted to that device before it (an unwanted event) has arrived by then. The
 * bystander's chat is a chat of its own, so it moves nothing the test looks at.
 */
async function markerTo(device: ClientSocket, to: AuthSession) {
  const arrived = next<MessageEvent>(device, 'new-message');
  await m.sent(bystander.access_token, to.user.id, 'маркер');
  expect((await arrived).message.sender_id).toBe(bystander.user.id);
}

describe('messages in real time', () => {
  it('reach every device of both sides; the temp_id only the sender’s', async () => {
    const [a1, a2, b1, b2] = await Promise.all([
      device(a.access_token),
      device(a.access_token),
      device(b.access_token),
      device(b.access_token),
    ]);
    const events = [a1, a2, b1, b2].map((s) => next<MessageEvent>(s, 'new-message'));
    const sent = await m.sent(a.access_token, b.user.id, 'живое');
    const [ea1, ea2, eb1, eb2] = await Promise.all(events);
    for (const e of [ea1, ea2]) {
      expect(e?.chat).toEqual({ type: 'personal', user_id: b.user.id, is_favorites: false });
      expect(e?.message).toMatchObject({ id: sent.id, content: 'живое', temp_id: sent.temp_id });
    }
    for (const e of [eb1, eb2]) {
      expect(e?.chat).toEqual({ type: 'personal', user_id: a.user.id, is_favorites: false });
      expect(e?.message.id).toBe(sent.id);
      expect(e?.message.temp_id).toBeUndefined();
    }

    const edited = [a1, b1].map((s) => next<MessageEvent>(s, 'message-edited'));
    await m.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: sent.id }), {
      content: 'живое!',
    });
    for (const e of await Promise.all(edited))
      expect(e.message).toMatchObject({ content: 'живое!', is_edited: true });

    const deleted = [a2, b2].map((s) => next<MessageDeletedEvent>(s, 'message-deleted'));
    await m.call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: sent.id }, { for: 'everyone' }),
    );
    for (const e of await Promise.all(deleted))
      expect(e).toMatchObject({ message_id: sent.id, for: 'everyone' });
  });

  it('a delete for me reaches only one’s own devices', async () => {
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    const sent = await m.sent(a.access_token, b.user.id, 'скрыть');
    const atB = next<MessageDeletedEvent>(b1, 'message-deleted');
    const atA = record(a1, 'message-deleted');
    await m.call(b.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: sent.id }, { for: 'me' }));
    expect(await atB).toMatchObject({ message_id: sent.id, for: 'me' });
    await markerTo(a1, a);
    expect(atA.count).toBe(0);
  });

  it('sends a delivery receipt when a recipient device acks, and a read receipt when the chat is read', async () => {
    const [a1, b1, b2] = await Promise.all([
      device(a.access_token),
      device(b.access_token),
      device(b.access_token),
    ]);
    const incoming = next<MessageEvent>(b1, 'new-message');
    const sent = await m.sent(a.access_token, b.user.id, 'дошло?');
    const { message } = await incoming;

    const delivered = next<MessageDeliveredEvent>(a1, 'message-delivered');
    const ack = await new Promise<{ ok: boolean }>((resolve) =>
      b1.emit('message-delivered', { message_ids: [message.id] }, resolve),
    );
    expect(ack).toEqual({ ok: true });
    expect(await delivered).toEqual({
      chat: { type: 'personal', user_id: b.user.id, is_favorites: false },
      up_to_message_id: sent.id,
    });
    expect((await m.conversation(a.access_token, b.user.id)).messages[0]).toMatchObject({
      is_delivered: true,
      is_read: false,
    });
    // A second ack of the same message moves nothing and announces nothing.
    const repeat = record(a1, 'message-delivered');
    const again = await new Promise<{ ok: boolean }>((resolve) =>
      b2.emit('message-delivered', { message_ids: [message.id] }, resolve),
    );
    expect(again).toEqual({ ok: true });
    await markerTo(a1, a);
    expect(repeat.count).toBe(0);

    const readAtA = next<MessagesReadEvent>(a1, 'messages-read');
    const readAtB2 = next<MessagesReadEvent>(b2, 'messages-read');
    await m.call(b.access_token, 'POST', apiUrl(messengerRoutes.read), { other_user_id: a.user.id });
    expect(await readAtA).toEqual({
      chat: { type: 'personal', user_id: b.user.id, is_favorites: false },
      reader_id: b.user.id,
      up_to_message_id: sent.id,
    });
    expect(await readAtB2).toMatchObject({ chat: { user_id: a.user.id }, reader_id: b.user.id });
    expect((await m.conversation(a.access_token, b.user.id)).messages[0]).toMatchObject({ is_read: true });
  });

  it('refuses a delivery ack for someone else’s chat', async () => {
    const c = await registerUser(t.app);
    const sent = await m.sent(a.access_token, b.user.id, 'не для В');
    const c1 = await device(c.access_token);
    const a1 = await device(a.access_token);
    const none = record(a1, 'message-delivered');
    const ack = await new Promise<{ ok: boolean }>((resolve) =>
      c1.emit('message-delivered', { message_ids: [sent.id] }, resolve),
    );
    expect(ack).toEqual({ ok: false });
    await markerTo(a1, a);
    expect(none.count).toBe(0);
  });
});

describe('typing and presence', () => {
  it('relays typing to the peer’s devices only, in an existing chat, at most the limit per window', async () => {
    await m.sent(a.access_token, b.user.id, 'привет');
    const [a1, b1, b2] = await Promise.all([
      device(a.access_token),
      device(b.access_token),
      device(b.access_token),
    ]);
    const atB1 = next<TypingEvent>(b1, 'typing');
    const atB2 = next<TypingEvent>(b2, 'typing');
    const echo = record(a1, 'typing');
    a1.emit('typing', { other_user_id: b.user.id, is_typing: true });
    const expected = { sender_id: a.user.id, type: 'typing', data: { is_typing: true } };
    expect(await atB1).toEqual(expected);
    expect(await atB2).toEqual(expected);
    await markerTo(a1, a);
    expect(echo.count).toBe(0);

    let received = 0;
    b1.on('typing', () => {
      received += 1;
    });
    for (let i = 0; i < 30; i += 1) a1.emit('typing', { other_user_id: b.user.id, is_typing: i % 2 === 0 });
    // A message sent after the typing burst on the same socket reaches b1 after every relay of it.
    const marker = next(b1, 'new-message');
    a1.emit(
      'send-message',
      { other_user_id: b.user.id, content: 'после', temp_id: `t-${Date.now()}` },
      () => {},
    );
    await marker;
    expect(received).toBe(defaultLimits['message.typing'].count - 1);
  });

  it('relays no typing to a stranger with no chat', async () => {
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    let received = 0;
    b1.on('typing', () => {
      received += 1;
    });
    a1.emit('typing', { other_user_id: b.user.id, is_typing: true });
    const marker = next(b1, 'new-message');
    a1.emit(
      'send-message',
      { other_user_id: b.user.id, content: 'первое', temp_id: `t-${Date.now()}` },
      () => {},
    );
    await marker;
    expect(received).toBe(0);
  });

  it('relays no typing into a chat where a message would be refused now (the other side blocked the typist)', async () => {
    await m.sent(a.access_token, b.user.id, 'привет');
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    let received = 0;
    b1.on('typing', () => {
      received += 1;
    });
    const blocking = (method: 'POST' | 'DELETE') =>
      t.app.inject({
        method,
        url: apiUrl(settingsRoutes.block, { username: a.user.username }),
        headers: { authorization: `Bearer ${b.access_token}` },
      });
    expect((await blocking('POST')).statusCode).toBe(200);
    a1.emit('typing', { other_user_id: b.user.id, is_typing: true });
    // A send on the same socket, refused, answers after the keystroke before it was handled.
    const refused = await new Promise<{ ok: boolean }>((resolve) =>
      a1.emit(
        'send-message',
        { other_user_id: b.user.id, content: 'ау', temp_id: `t-${Date.now()}` },
        resolve,
      ),
    );
    expect(refused.ok).toBe(false);
    // Unblocked, the next keystroke is relayed; a message after it marks the end of every relay before it.
    expect((await blocking('DELETE')).statusCode).toBe(200);
    const relayed = next(b1, 'typing');
    a1.emit('typing', { other_user_id: b.user.id, is_typing: false });
    await relayed;
    const marker = next(b1, 'new-message');
    a1.emit(
      'send-message',
      { other_user_id: b.user.id, content: 'вот', temp_id: `t-${Date.now()}` },
      () => {},
    );
    await marker;
    expect(received).toBe(1);
  });

  it('tells chat partners (not only followers) when a user comes online', async () => {
    await m.sent(a.access_token, b.user.id, 'привет');
    const b1 = await device(b.access_token);
    const online = next<OnlineEvent>(b1, 'online');
    await device(a.access_token);
    expect(await online).toEqual({ type: 'online', sender_id: a.user.id });
  });
});
