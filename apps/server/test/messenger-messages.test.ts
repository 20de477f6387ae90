import type { AuthSession, Message } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countRows, createTestApp, registerUser, type TestApp } from './helpers.ts';
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
  a = await registerUser(t.app);
  b = await registerUser(t.app);
  c = await registerUser(t.app);
});

const countMessages = () => countRows(t.db, 'messages');

describe('sending', () => {
  it('stores the message for both sides, trims it, and echoes temp_id to the sender only', async () => {
    const res = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), {
      other_user_id: b.user.id,
      content: '  Привет, **Б**!  ',
      temp_id: 'temp-1',
    });
    expect(res.statusCode).toBe(200);
    const sent = (res.json() as { message: Message }).message;
    expect(sent).toMatchObject({
      sender_id: a.user.id,
      sender_username: a.user.username,
      sender_name: a.user.name,
      content: 'Привет, **Б**!',
      temp_id: 'temp-1',
      is_read: false,
      is_delivered: false,
      is_edited: false,
      is_forwarded: false,
      forwarded_from_username: null,
      files: [],
      message_type: 'text',
    });
    const seenByB = (await m.conversation(b.access_token, a.user.id)).messages;
    expect(seenByB.map((x) => x.id)).toEqual([sent.id]);
    expect(seenByB[0]?.temp_id).toBeUndefined();
  });

  it('is idempotent on temp_id: a resend answers the same message and stores nothing new', async () => {
    const body = { other_user_id: b.user.id, content: 'один раз', temp_id: 'temp-resend' };
    const first = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), body);
    const before = await countMessages();
    const [again, parallel] = await Promise.all([
      m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), body),
      m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), body),
    ]);
    expect(again.json().message.id).toBe(first.json().message.id);
    expect(parallel.json().message.id).toBe(first.json().message.id);
    expect(await countMessages()).toBe(before);
    expect((await m.conversation(b.access_token, a.user.id)).messages).toHaveLength(1);
    // The same temp_id from another sender is a different message.
    const other = await m.call(c.access_token, 'POST', apiUrl(messengerRoutes.send), body);
    expect(other.json().message.id).not.toBe(first.json().message.id);
  });

  it('sends to favorites when other_user_id is one’s own id; they are read and delivered', async () => {
    const saved = await m.sent(a.access_token, a.user.id, 'заметка себе');
    expect(saved).toMatchObject({ is_read: true, is_delivered: true });
    const chats = await m.chats(a.access_token);
    expect(chats).toHaveLength(1);
    expect(chats[0]).toMatchObject({ is_favorites: true, user_id: a.user.id, unread_count: 0 });
    expect(chats[0]?.last_message?.content).toBe('заметка себе');
    expect((await m.conversation(a.access_token, a.user.id)).messages.map((x) => x.id)).toEqual([saved.id]);
  });

  it('refuses empty text, unknown users and bad input with 4xx and stores nothing', async () => {
    const before = await countMessages();
    expect((await m.send(a.access_token, b.user.id, '   ')).statusCode).toBe(400);
    expect((await m.send(a.access_token, 999_999, 'кому?')).statusCode).toBe(404);
    expect((await m.send(a.access_token, b.user.id, 'x'.repeat(4097))).statusCode).toBe(400);
    expect(
      (
        await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.send), {
          other_user_id: b.user.id,
          content: 'x',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await m.send(a.access_token, b.user.id, 'с чужим', { attachment_ids: [123456] })).statusCode,
    ).toBe(400);
    expect(await countMessages()).toBe(before);
  });
});

describe('conversation paging', () => {
  it('pages from the newest end: 30 first, then 20 older at offset = count loaded, each page oldest first', async () => {
    const values = Array.from({ length: 55 }, (_, i) => sql`(${i})`);
    const conv = await m.sent(a.access_token, b.user.id, 'm0');
    const [row] = await t.db.kysely
      .selectFrom('messages')
      .select('conversation_id')
      .where('id', '=', conv.id)
      .execute();
    await sql`insert into messages (conversation_id, sender_id, content)
      select ${row?.conversation_id}, ${a.user.id}, 'm' || v from (values ${sql.join(values.slice(1))}) as t(v)`.execute(
      t.db.kysely,
    );
    const first = await m.conversation(b.access_token, a.user.id, { limit: 30 });
    expect(first.messages.map((x) => x.content)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i + 25}`));
    expect(first.has_more).toBe(true);
    const older = await m.conversation(b.access_token, a.user.id, { limit: 20, offset: 30 });
    expect(older.messages.map((x) => x.content)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    const last = await m.conversation(b.access_token, a.user.id, { limit: 20, offset: 50 });
    expect(last.messages.map((x) => x.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(last.has_more).toBe(false);
  });
});

describe('who may do what', () => {
  it('a third user cannot read, edit, delete, forward, acknowledge or mark anything of A–B', async () => {
    const msg = await m.sent(a.access_token, b.user.id, 'только для Б');
    // C's conversation with B is C–B: nothing of A–B shows up there.
    expect((await m.conversation(c.access_token, b.user.id)).messages).toEqual([]);
    expect((await m.conversation(c.access_token, a.user.id)).messages).toEqual([]);
    const edit = await m.call(c.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: msg.id }), {
      content: 'взлом',
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().code).toBe('forbidden');
    expect(
      (
        await m.call(
          c.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: msg.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await m.call(c.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: msg.id }, { for: 'me' })))
        .statusCode,
    ).toBe(403);
    const fwd = await m.call(c.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [msg.id],
      targets: [{ is_favorites: true }],
    });
    expect(fwd.statusCode).toBe(403);
    expect(
      (await m.call(c.access_token, 'POST', apiUrl(messengerRoutes.delivered), { message_ids: [msg.id] }))
        .statusCode,
    ).toBe(403);
    // C marking "its" chat with A read does not touch B's read state of A–B.
    await m.call(c.access_token, 'POST', apiUrl(messengerRoutes.read), { other_user_id: a.user.id });
    const [stored] = (await m.conversation(a.access_token, b.user.id)).messages;
    expect(stored).toMatchObject({ content: 'только для Б', is_read: false, is_edited: false });
    expect(await m.chats(c.access_token)).toEqual([]);
  });

  it('only the author edits, within one hour, and the edit sets is_edited', async () => {
    const msg = await m.sent(a.access_token, b.user.id, 'черновик');
    const byPeer = await m.call(b.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: msg.id }), {
      content: 'чужая правка',
    });
    expect(byPeer.statusCode).toBe(403);
    const ok = await m.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: msg.id }), {
      content: 'исправлено',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toMatchObject({ content: 'исправлено', is_edited: true });
    expect((await m.conversation(b.access_token, a.user.id)).messages[0]).toMatchObject({
      content: 'исправлено',
      is_edited: true,
    });
    expect(
      (await m.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: msg.id }), { content: '  ' }))
        .statusCode,
    ).toBe(400);

    await t.db.kysely
      .updateTable('messages')
      .set({ created_at: new Date(Date.now() - 61 * 60 * 1000) })
      .where('id', '=', msg.id)
      .execute();
    const late = await m.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: msg.id }), {
      content: 'поздно',
    });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'edit_window_expired' });
    expect((await m.conversation(b.access_token, a.user.id)).messages[0]?.content).toBe('исправлено');
  });
});

describe('deleting', () => {
  it('for me hides it from my side only; for everyone removes it on both sides', async () => {
    const one = await m.sent(a.access_token, b.user.id, 'первое');
    const two = await m.sent(a.access_token, b.user.id, 'второе');
    expect(
      (
        await m.call(b.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: one.id }, { for: 'me' }))
      ).json(),
    ).toEqual({
      id: one.id,
      for: 'me',
    });
    expect((await m.conversation(b.access_token, a.user.id)).messages.map((x) => x.id)).toEqual([two.id]);
    expect((await m.conversation(a.access_token, b.user.id)).messages.map((x) => x.id)).toEqual([
      one.id,
      two.id,
    ]);

    // Only the author deletes for everyone.
    expect(
      (
        await m.call(
          b.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: two.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await m.call(
          a.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: two.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await m.conversation(b.access_token, a.user.id)).messages).toEqual([]);
    expect((await m.conversation(a.access_token, b.user.id)).messages.map((x) => x.id)).toEqual([one.id]);
    expect(
      (
        await m.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: two.id }), {
          content: 'вернуть',
        })
      ).statusCode,
    ).toBe(404);
    const [row] = await t.db.kysely
      .selectFrom('messages')
      .select('content')
      .where('id', '=', two.id)
      .execute();
    expect(row?.content).toBe('');
  });
});

describe('forwarding', () => {
  it('copies messages into favorites and other chats with is_forwarded and the original author', async () => {
    const original = await m.sent(b.access_token, a.user.id, 'пересылаемое');
    const res = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [original.id],
      targets: [{ is_favorites: true }, { chat_user_id: c.user.id }],
    });
    expect(res.statusCode).toBe(200);
    const copies = res.json().messages as Message[];
    expect(copies).toHaveLength(2);
    for (const copy of copies)
      expect(copy).toMatchObject({
        sender_id: a.user.id,
        content: 'пересылаемое',
        is_forwarded: true,
        forwarded_from_username: b.user.username,
      });
    expect((await m.conversation(a.access_token, a.user.id)).messages[0]).toMatchObject({
      is_forwarded: true,
    });
    const atC = (await m.conversation(c.access_token, a.user.id)).messages;
    expect(atC[0]).toMatchObject({ forwarded_from_username: b.user.username, sender_id: a.user.id });

    // Forwarding a forward keeps the first author.
    const again = await m.call(c.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [atC[0]?.id],
      targets: [{ is_favorites: true }],
    });
    expect(again.json().messages[0].forwarded_from_username).toBe(b.user.username);
    const group = await m.call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [original.id],
      targets: [{ group_id: 1 }],
    });
    expect(group.statusCode).toBe(404);
  });
});
