import {
  type AroundResponse,
  type AuthSession,
  apiUrl,
  type ChatListItem,
  type ConversationResponse,
  chatTargetOf,
  ErrorCode,
  GroupServiceText,
  type Message,
  type MessagePinResponse,
  messengerRoutes,
  type SharedMediaResponse,
} from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { settingsRoutes } from '@kadr/contract/settings/routes';
import { voiceRoutes } from '@kadr/contract/voice/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.ts';

/**
 * The messenger, groups and channels items of the two-user screen walk: chat actions by kind and
 * id, "can I write here", a window around a message, pinned messages, service lines, the kept invite link,
 * «Медиа из чата» and the voice check that is no error.
 */
let t: TestApp;
let c: ReturnType<typeof chats>;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', RATE_LIMITS: 'group.create=100/1m' });
  c = chats(t.app);
}, 180_000);
afterAll(() => t.close());

const call = (
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const send = (from: AuthSession, target: object, content: string) =>
  c.sent(from.access_token, target, content);
const listRow = async (who: AuthSession, match: (row: ChatListItem) => boolean) =>
  (await c.list(who.access_token)).find(match);

describe('chat actions name the chat by its kind and id', () => {
  it('pins and clears a group and a channel, leaving the personal chat with the same numeric id untouched', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    // Rooms whose ids are past A's and B's user ids (in a fresh database both sequences start at 1).
    let g = await c.createGroup(a.access_token, { name: 'Совпадение', member_ids: [b.user.id] });
    while (g.id <= Math.max(a.user.id, b.user.id))
      g = await c.createGroup(a.access_token, { name: 'Совпадение', member_ids: [b.user.id] });
    const ch = await c.createChannel(a.access_token, {
      name: 'Канал совпадения',
      slug: `twin-${process.pid}`,
    });
    // Users with exactly the group's and the channel's ids, each with a personal chat with A holding one
    // message (ids of users and of chats come from different sequences, so they meet).
    const maxUserId = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('users')
            .select((e) => e.fn.max('id').as('m'))
            .executeTakeFirst()
        )?.m ?? 0,
      );
    while ((await maxUserId()) < Math.max(g.id, ch.id)) await registerUser(t.app);
    for (const [id, text] of [
      [g.id, 'привет тёзке группы'],
      [ch.id, 'привет тёзке канала'],
    ] as const)
      await send(a, { other_user_id: id }, text);

    const rows = await c.list(a.access_token);
    const groupRow = rows.find((r) => r.type === 'group' && r.user_id === g.id) as ChatListItem;
    const channelRow = rows.find((r) => r.type === 'channel' && r.user_id === ch.id) as ChatListItem;
    expect(chatTargetOf(groupRow)).toEqual({ group_id: g.id });
    expect(chatTargetOf(channelRow)).toEqual({ channel_id: ch.id });

    // What the web sends for the rows of the list: the rooms get pinned, the personal twins do not.
    for (const row of [groupRow, channelRow]) {
      const pinned = await call(a.access_token, 'POST', apiUrl(messengerRoutes.pin), chatTargetOf(row));
      expect(pinned.statusCode, pinned.body).toBe(200);
    }
    let after = await c.list(a.access_token);
    const state = (type: string, id: number) => after.find((r) => r.type === type && r.user_id === id);
    expect(state('group', g.id)?.is_pinned).toBe(true);
    expect(state('channel', ch.id)?.is_pinned).toBe(true);
    expect(state('personal', g.id)?.is_pinned).toBe(false);
    expect(state('personal', ch.id)?.is_pinned).toBe(false);

    for (const row of [groupRow, channelRow]) {
      const removed = await call(
        a.access_token,
        'DELETE',
        apiUrl(messengerRoutes.deleteChat),
        chatTargetOf(row),
      );
      expect(removed.statusCode, removed.body).toBe(200);
    }
    // The personal chats with the same numbers keep their history.
    for (const id of [g.id, ch.id]) {
      const history = (
        await call(
          a.access_token,
          'GET',
          apiUrl(messengerRoutes.conversation, undefined, { other_user_id: id }),
        )
      ).json() as ConversationResponse;
      expect(history.messages).toHaveLength(1);
    }
    after = await c.list(a.access_token);
    expect(state('personal', g.id)?.last_message?.content).toBe('привет тёзке группы');
    expect(state('personal', ch.id)?.last_message?.content).toBe('привет тёзке канала');
    // A room's «delete» clears its history for the reader (they stay a member, as Telegram's clearing).
    for (const row of [groupRow, channelRow]) expect(state(row.type, row.user_id)?.last_message).toBeNull();
  });
});

describe('can I write here', () => {
  it('the conversation answer says why before anything is sent, and nothing when one may write', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const conversation = async () =>
      (
        await call(
          a.access_token,
          'GET',
          apiUrl(messengerRoutes.conversation, undefined, { other_user_id: b.user.id }),
        )
      ).json() as ConversationResponse;
    expect((await conversation()).write_restriction).toBeUndefined();
    const set = await call(b.access_token, 'PATCH', apiUrl(settingsRoutes.update), {
      privacy: { messages: 'following' },
    });
    expect(set.statusCode).toBe(200);
    expect((await conversation()).write_restriction).toEqual({
      code: ErrorCode.messagesRestricted,
      error: expect.any(String),
    });
    // The field tells the truth: the send is refused with the same reason.
    const refused = await c.send(a.access_token, { other_user_id: b.user.id }, 'можно?');
    expect(refused.statusCode).toBe(403);
    expect((await conversation()).write_restriction?.error).toBe(refused.json().error);
    // Favorites are always writable.
    const own = (
      await call(
        a.access_token,
        'GET',
        apiUrl(messengerRoutes.conversation, undefined, { other_user_id: a.user.id }),
      )
    ).json() as ConversationResponse;
    expect(own.write_restriction).toBeUndefined();
  });
});

describe('a window of history around a message', () => {
  it('answers the message with older and newer ones, for members only', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const x = await registerUser(t.app);
    const sent: Message[] = [];
    for (let i = 0; i < 40; i += 1)
      sent.push(await send(i % 2 ? a : b, { other_user_id: i % 2 ? b.user.id : a.user.id }, `№${i}`));
    const target = sent[10] as Message;
    const res = await call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.around, { id: target.id }, { limit: 9 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const around = res.json() as AroundResponse;
    expect(around.chat).toEqual({ type: 'personal', user_id: b.user.id, is_favorites: false });
    expect(around.messages.map((m) => m.content)).toEqual([
      '№6',
      '№7',
      '№8',
      '№9',
      '№10',
      '№11',
      '№12',
      '№13',
      '№14',
    ]);
    expect(around).toMatchObject({ has_older: true, has_newer: true });
    const atStart = (
      await call(
        a.access_token,
        'GET',
        apiUrl(messengerRoutes.around, { id: (sent[1] as Message).id }, { limit: 9 }),
      )
    ).json() as AroundResponse;
    expect(atStart.messages[0]?.content).toBe('№0');
    expect(atStart.has_older).toBe(false);
    const atEnd = (
      await call(a.access_token, 'GET', apiUrl(messengerRoutes.around, { id: (sent[39] as Message).id }))
    ).json() as AroundResponse;
    expect(atEnd.messages.at(-1)?.content).toBe('№39');
    expect(atEnd.has_newer).toBe(false);
    const stranger = await call(x.access_token, 'GET', apiUrl(messengerRoutes.around, { id: target.id }));
    expect(stranger.statusCode).toBe(403);
    const missing = await call(a.access_token, 'GET', apiUrl(messengerRoutes.around, { id: 2_000_000_000 }));
    expect(missing.statusCode).toBe(404);
  });
});

describe('pinned messages', () => {
  it('either side pins in a personal chat; the chat list and the event carry it; unpin clears it', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const m = await send(a, { other_user_id: b.user.id }, 'Адрес встречи: Тверская, 1');
    const pinned = await call(b.access_token, 'PUT', apiUrl(messengerRoutes.pinMessage, { id: m.id }));
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect((pinned.json() as MessagePinResponse).pinned_message).toMatchObject({
      id: m.id,
      content: 'Адрес встречи: Тверская, 1',
    });
    for (const who of [a, b]) {
      const row = await listRow(who, (r) => r.type === 'personal' && !r.is_favorites);
      expect(row?.pinned_message?.id, 'both members see the pin').toBe(m.id);
    }
    const other = await send(b, { other_user_id: a.user.id }, 'не то');
    // Unpinning a message that is not the pinned one changes nothing.
    const wrong = await call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.unpinMessage, { id: other.id }),
    );
    expect((wrong.json() as MessagePinResponse).pinned_message?.id).toBe(m.id);
    const unpinned = await call(a.access_token, 'DELETE', apiUrl(messengerRoutes.unpinMessage, { id: m.id }));
    expect((unpinned.json() as MessagePinResponse).pinned_message).toBeNull();
    expect(
      (await listRow(a, (r) => r.type === 'personal' && !r.is_favorites))?.pinned_message,
    ).toBeUndefined();
  });

  it('in a group only the owner and admins pin; a message deleted for everyone is no longer pinned', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const g = await c.createGroup(a.access_token, { name: 'Закрепы', member_ids: [b.user.id] });
    const m = await send(b, { group_id: g.id }, 'правила группы');
    const byMember = await call(b.access_token, 'PUT', apiUrl(messengerRoutes.pinMessage, { id: m.id }));
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json().code).toBe('forbidden');
    expect((await listRow(b, (r) => r.type === 'group'))?.pinned_message).toBeUndefined();
    const byOwner = await call(a.access_token, 'PUT', apiUrl(messengerRoutes.pinMessage, { id: m.id }));
    expect(byOwner.statusCode).toBe(200);
    expect((await listRow(b, (r) => r.type === 'group'))?.pinned_message?.content).toBe('правила группы');
    // The owner deletes the member's message for everyone (the moderation the web now offers).
    const removed = await call(
      a.access_token,
      'DELETE',
      apiUrl(messengerRoutes.remove, { id: m.id }, { for: 'everyone' }),
    );
    expect(removed.statusCode).toBe(200);
    expect((await listRow(b, (r) => r.type === 'group'))?.pinned_message).toBeUndefined();
  });
});

describe('group service lines and the invite link', () => {
  const history = async (who: AuthSession, id: number) =>
    (await call(who.access_token, 'GET', apiUrl(groupsRoutes.messages, { id }))).json() as Message[];

  it('joining, being added, leaving and being removed each leave a line; removal keeps the link', async () => {
    const a = await registerUser(t.app, undefined, 'Анна');
    const b = await registerUser(t.app, undefined, 'Борис');
    const v = await registerUser(t.app, undefined, 'Вера');
    const d = await registerUser(t.app, undefined, 'Дима');
    const g = await c.createGroup(a.access_token, { name: 'Клуб' });
    const token = g.inviteToken as string;
    const joined = await call(b.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }));
    expect(joined.statusCode, joined.body).toBe(200);
    await call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [v.user.id, d.user.id],
    });
    await call(v.access_token, 'POST', apiUrl(groupsRoutes.leave, { id: g.id }));
    const removed = await c.removeMember(a.access_token, g.id, b.user.id);
    expect(removed.statusCode).toBe(200);

    const lines = (await history(a, g.id)).filter((m) => m.message_type === 'service');
    expect(lines.map((m) => m.content)).toEqual([
      GroupServiceText.joined('Борис'),
      GroupServiceText.added('Анна', 'Вера'),
      GroupServiceText.added('Анна', 'Дима'),
      GroupServiceText.left('Вера'),
      GroupServiceText.removed('Анна', 'Борис'),
    ]);
    // The chat list shows the last line as the preview.
    expect((await listRow(d, (r) => r.type === 'group'))?.last_message?.content).toBe(
      GroupServiceText.removed('Анна', 'Борис'),
    );
    // A service line is not edited or forwarded.
    const line = lines[0] as Message;
    expect(
      (await call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: line.id }), { content: 'x' }))
        .statusCode,
    ).toBe(403);
    const forwarded = await call(a.access_token, 'POST', apiUrl(messengerRoutes.forward), {
      message_ids: [line.id],
      targets: [{ is_favorites: true }],
    });
    expect(forwarded.statusCode).toBe(400);

    // The link everyone holds still works (it is no longer renewed by a removal)…
    const group = (await call(a.access_token, 'GET', apiUrl(groupsRoutes.get, { id: g.id }))).json();
    expect(group.inviteToken).toBe(token);
    const newcomer = await registerUser(t.app);
    expect(
      (await call(newcomer.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }))).statusCode,
    ).toBe(200);
    // …but not for the one removed, until an admin adds them back.
    const back = await call(b.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }));
    expect(back.statusCode).toBe(403);
    expect(back.json().code).toBe(ErrorCode.removedFromGroup);
    expect(
      (await call(a.access_token, 'GET', apiUrl(groupsRoutes.members, { id: g.id })))
        .json()
        .members.map((m: { user_id: number }) => m.user_id),
    ).not.toContain(b.user.id);
    await call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [b.user.id],
    });
    await call(b.access_token, 'POST', apiUrl(groupsRoutes.leave, { id: g.id }));
    expect(
      (await call(b.access_token, 'POST', apiUrl(groupsRoutes.joinByInvite, { token }))).statusCode,
    ).toBe(200);
  });
});

describe('«Медиа из чата» and the voice check', () => {
  it('lists a chat’s files for its members only', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const x = await registerUser(t.app);
    const ch = await c.createChannel(a.access_token, { name: 'Файлы', slug: `files-${process.pid}` });
    await call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    const media = (who: AuthSession, query: object) =>
      call(
        who.access_token,
        'GET',
        apiUrl(messengerRoutes.sharedMedia, undefined, { channel_id: ch.id, ...query }),
      );
    const none = await media(b, { kind: 'media' });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json() as SharedMediaResponse).toEqual({ items: [], has_more: false });
    expect((await media(x, { kind: 'media' })).statusCode).toBe(403);
    const both = await call(
      a.access_token,
      'GET',
      apiUrl(messengerRoutes.sharedMedia, undefined, { channel_id: ch.id, group_id: 1, kind: 'files' }),
    );
    expect(both.statusCode).toBe(400);
  });

  it('a group without a voice chat answers null, not 404', async () => {
    const a = await registerUser(t.app);
    const g = await c.createGroup(a.access_token, { name: 'Тишина' });
    const res = await call(a.access_token, 'GET', apiUrl(voiceRoutes.get, { id: g.id }));
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('null');
  });
});
