import type { AuthSession, ChatListItem } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';

let t: TestApp;
let m: ReturnType<typeof messenger>;
let a: AuthSession;
let b: AuthSession;
let c: AuthSession;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  m = messenger(t.app);
});
afterAll(() => t.close());
beforeEach(async () => {
  a = await registerUser(t.app, undefined, 'Анна');
  b = await registerUser(t.app, undefined, 'Борис');
  c = await registerUser(t.app, undefined, 'Вера');
});

const peerIds = (chats: ChatListItem[]) => chats.map((x) => (x.is_favorites ? 'fav' : x.user_id));
const pin = (token: string, body: object, method: 'POST' | 'DELETE' = 'POST') =>
  m.call(token, method, apiUrl(messengerRoutes.pin), body);

describe('chat list', () => {
  it('carries every §3 field: peer, last_message with receipts, unread count, last_time, last_seen', async () => {
    const lastSeen = new Date('2026-01-02T03:04:05.000Z');
    await t.db.kysely.updateTable('users').set({ last_seen: lastSeen }).where('id', '=', b.user.id).execute();
    await m.sent(b.access_token, a.user.id, 'раз');
    const two = await m.sent(b.access_token, a.user.id, 'два');
    const mine = await m.sent(a.access_token, b.user.id, 'ответ '.repeat(60));

    const [chat] = await m.chats(a.access_token);
    expect(chat).toEqual({
      type: 'personal',
      user_id: b.user.id,
      username: 'Борис',
      profile_username: b.user.username,
      avatar_url: null,
      avatar_thumbnail_url: null,
      is_favorites: false,
      is_pinned: false,
      pin_order: null,
      unread_count: 2,
      last_message: {
        content: 'ответ '.repeat(60).trim().slice(0, 200),
        sender_id: a.user.id,
        sender_username: a.user.username,
        is_read: false,
        is_delivered: false,
        created_at: mine.created_at,
        message_type: 'text',
      },
      last_time: mine.created_at,
      last_seen: lastSeen.toISOString(),
    });
    expect(two.id).toBeLessThan(mine.id);

    // B's list loading counts as B's device receiving; reading clears A's unread and flips A's receipts.
    const [bChat] = await m.chats(b.access_token);
    expect(bChat).toMatchObject({ user_id: a.user.id, unread_count: 1, username: 'Анна' });
    expect((await m.chats(a.access_token))[0]?.last_message).toMatchObject({
      is_delivered: true,
      is_read: false,
    });
    const read = await m.call(b.access_token, 'POST', apiUrl(messengerRoutes.read), {
      other_user_id: a.user.id,
    });
    expect(read.json()).toEqual({ up_to_message_id: mine.id, unread_count: 0 });
    expect((await m.chats(b.access_token))[0]?.unread_count).toBe(0);
    expect((await m.chats(a.access_token))[0]?.last_message).toMatchObject({
      is_delivered: true,
      is_read: true,
    });
    await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.read), { other_user_id: b.user.id });
    expect((await m.chats(a.access_token))[0]?.unread_count).toBe(0);
  });

  it('counts unread per chat, not counting own, hidden or deleted messages', async () => {
    await m.sent(b.access_token, a.user.id, '1');
    const hidden = await m.sent(b.access_token, a.user.id, '2');
    const gone = await m.sent(b.access_token, a.user.id, '3');
    await m.sent(a.access_token, b.user.id, 'моё');
    await m.sent(c.access_token, a.user.id, 'от Веры');
    await m.call(a.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: hidden.id }, { for: 'me' }));
    await m.call(
      b.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: gone.id }, { for: 'everyone' }),
    );
    const chats = await m.chats(a.access_token);
    expect(chats.map((x) => [x.user_id, x.unread_count])).toEqual([
      [c.user.id, 1],
      [b.user.id, 1],
    ]);
  });

  it('orders favorites first, then pinned by pin_order (a new pin goes last), then by last_time', async () => {
    await m.sent(a.access_token, b.user.id, 'b');
    await m.sent(a.access_token, c.user.id, 'c');
    const d = await registerUser(t.app);
    await m.sent(d.access_token, a.user.id, 'd');
    expect(peerIds(await m.chats(a.access_token))).toEqual([d.user.id, c.user.id, b.user.id]);

    expect((await pin(a.access_token, { chat_user_id: b.user.id })).json()).toEqual({
      is_pinned: true,
      pin_order: 1,
    });
    expect((await pin(a.access_token, { chat_user_id: c.user.id })).json()).toEqual({
      is_pinned: true,
      pin_order: 2,
    });
    // Pinning again keeps the place.
    expect((await pin(a.access_token, { chat_user_id: b.user.id })).json()).toEqual({
      is_pinned: true,
      pin_order: 1,
    });
    expect((await pin(a.access_token, { is_favorites: true })).json()).toEqual({
      is_pinned: true,
      pin_order: 3,
    });
    const chats = await m.chats(a.access_token);
    expect(peerIds(chats)).toEqual(['fav', b.user.id, c.user.id, d.user.id]);
    expect(chats.map((x) => x.pin_order)).toEqual([3, 1, 2, null]);
    // Pins are per user.
    expect((await m.chats(b.access_token))[0]).toMatchObject({ is_pinned: false, pin_order: null });

    expect((await pin(a.access_token, { chat_user_id: b.user.id }, 'DELETE')).json()).toEqual({
      is_pinned: false,
      pin_order: null,
    });
    expect(peerIds(await m.chats(a.access_token))).toEqual(['fav', c.user.id, d.user.id, b.user.id]);
    expect((await pin(a.access_token, { group_id: 5 })).statusCode).toBe(404);
    expect((await pin(a.access_token, { chat_user_id: 999_999 })).statusCode).toBe(404);
    expect((await pin(a.access_token, { chat_user_id: b.user.id, is_favorites: true })).statusCode).toBe(400);
  });

  it('deleting a chat clears it for oneself only; favorites cannot be deleted', async () => {
    await m.sent(a.access_token, b.user.id, 'старое');
    await pin(a.access_token, { chat_user_id: b.user.id });
    await m.sent(a.access_token, a.user.id, 'заметка');
    const fav = await m.call(a.access_token, 'DELETE', apiUrl(messengerRoutes.deleteChat), {
      is_favorites: true,
    });
    expect(fav.statusCode).toBe(400);
    expect(fav.json().code).toBe('cannot_delete_favorites');
    expect(
      (
        await m.call(a.access_token, 'DELETE', apiUrl(messengerRoutes.deleteChat), {
          chat_user_id: a.user.id,
        })
      ).statusCode,
    ).toBe(400);
    expect((await m.conversation(a.access_token, a.user.id)).messages).toHaveLength(1);

    expect(
      (
        await m.call(a.access_token, 'DELETE', apiUrl(messengerRoutes.deleteChat), {
          chat_user_id: b.user.id,
        })
      ).json(),
    ).toEqual({
      ok: true,
    });
    expect(peerIds(await m.chats(a.access_token))).toEqual(['fav']);
    expect((await m.conversation(a.access_token, b.user.id)).messages).toEqual([]);
    expect((await m.conversation(b.access_token, a.user.id)).messages).toHaveLength(1);
    // A new message brings the chat back with only the new history, unpinned.
    await m.sent(b.access_token, a.user.id, 'новое');
    const chats = await m.chats(a.access_token);
    expect(chats[1]).toMatchObject({ user_id: b.user.id, is_pinned: false, unread_count: 1 });
    expect((await m.conversation(a.access_token, b.user.id)).messages.map((x) => x.content)).toEqual([
      'новое',
    ]);
    expect(
      (
        await m.call(a.access_token, 'DELETE', apiUrl(messengerRoutes.deleteChat), {
          chat_user_id: c.user.id,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('search', () => {
  it('finds messages by Russian word forms in one’s own chats only', async () => {
    await m.sent(a.access_token, b.user.id, 'Это важное сообщение про отпуск');
    await m.sent(b.access_token, a.user.id, 'Сообщениями не обменивались');
    await m.sent(a.access_token, a.user.id, 'Черновик: сообщение себе');
    await m.sent(b.access_token, c.user.id, 'Чужое сообщение');
    await m.sent(a.access_token, c.user.id, 'Про погоду');

    const res = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.search, undefined, { q: 'сообщения' }),
    );
    expect(res.statusCode).toBe(200);
    const { results, has_more } = res.json() as {
      results: { chat: { user_id: number; is_favorites: boolean }; message: { content: string } }[];
      has_more: boolean;
    };
    expect(results.map((r) => r.message.content)).toEqual([
      'Черновик: сообщение себе',
      'Сообщениями не обменивались',
      'Это важное сообщение про отпуск',
    ]);
    expect(results.map((r) => r.chat)).toEqual([
      { type: 'personal', user_id: a.user.id, is_favorites: true },
      { type: 'personal', user_id: b.user.id, is_favorites: false },
      { type: 'personal', user_id: b.user.id, is_favorites: false },
    ]);
    expect(has_more).toBe(false);
    const paged = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.search, undefined, { q: 'сообщение', limit: 2 }),
    );
    expect(paged.json().has_more).toBe(true);
    expect(
      (await m.call(a.access_token, 'GET', apiUrl(messengerRoutes.search, undefined, { q: '' }))).statusCode,
    ).toBe(400);
    // Odd punctuation is safe (websearch syntax never errors).
    expect(
      (await m.call(a.access_token, 'GET', apiUrl(messengerRoutes.search, undefined, { q: '"(& |!' })))
        .statusCode,
    ).toBe(200);
  });

  it('finds a group message once, however many members the group has', async () => {
    const g = chats(t.app);
    const group = await g.createGroup(a.access_token, {
      name: 'Поездка',
      member_ids: [b.user.id, c.user.id],
    });
    await g.sent(b.access_token, { group_id: group.id }, 'Билеты на поезд куплены');
    const res = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.search, undefined, { q: 'билет' }),
    );
    expect(res.statusCode).toBe(200);
    const { results } = res.json() as { results: { chat: object; message: { content: string } }[] };
    expect(results.map((r) => r.message.content)).toEqual(['Билеты на поезд куплены']);
    expect(results[0]!.chat).toMatchObject({ type: 'group', user_id: group.id, is_favorites: false });
  });

  it('finds chats by the peer’s name or @username', async () => {
    await m.sent(a.access_token, b.user.id, 'привет');
    await m.sent(a.access_token, c.user.id, 'привет');
    const byName = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.chatSearch, undefined, { q: 'бор' }),
    );
    expect(peerIds(byName.json().chats)).toEqual([b.user.id]);
    const byHandle = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.chatSearch, undefined, { q: c.user.username.slice(0, 8) }),
    );
    expect(peerIds(byHandle.json().chats)).toContain(c.user.id);
    const wildcard = await m.call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.chatSearch, undefined, { q: '%' }),
    );
    expect(wildcard.json().chats).toEqual([]);
  });
});
