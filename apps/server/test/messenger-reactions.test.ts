import type {
  AuthSession,
  Channel,
  Group,
  Message,
  MessageReactionsEvent,
  ReactionsResponse,
} from '@kadr/contract';
import { apiUrl, messengerReactionRoutes, messengerRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let m: ReturnType<typeof messenger>;
let c: ReturnType<typeof chats>;
let a: AuthSession;
let b: AuthSession;
let outsider: AuthSession;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  m = messenger(t.app);
  c = chats(t.app);
  // Generous: the shared test machine is slow to build an app; nothing here measures time.
}, 240_000);
afterAll(() => t.close());
beforeEach(async () => {
  [a, b, outsider] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
});
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});

const react = (token: string, id: number, reaction: string, on = true) =>
  t.app.inject({
    method: on ? 'PUT' : 'DELETE',
    url: apiUrl(messengerReactionRoutes.react, { id, reaction }),
    headers: { authorization: `Bearer ${token}` },
  });

async function reacted(token: string, id: number, reaction: string, on = true): Promise<ReactionsResponse> {
  const res = await react(token, id, reaction, on);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReactionsResponse;
}

describe('reactions on messages', () => {
  it('toggle idempotently, with counts and who reacted, in the history of both sides', async () => {
    const msg = await m.sent(a.access_token, b.user.id, 'нравится?');
    await reacted(b.access_token, msg.id, 'heart');
    const twice = await reacted(b.access_token, msg.id, 'heart');
    expect(twice.reactions).toEqual([
      { reaction: 'heart', count: 1, users: [{ id: b.user.id, name: b.user.name }] },
    ]);
    const both = await reacted(a.access_token, msg.id, 'heart');
    expect(both.reactions[0]).toMatchObject({ reaction: 'heart', count: 2 });
    expect(both.reactions[0]?.users.map((u) => u.id)).toEqual([b.user.id, a.user.id]);
    await reacted(a.access_token, msg.id, 'like');
    // The picker's order, whatever the order they were added in.
    const history = await m.conversation(b.access_token, a.user.id);
    const seen = history.messages.find((x) => x.id === msg.id) as Message;
    expect(seen.reactions?.map((r) => [r.reaction, r.count])).toEqual([
      ['like', 1],
      ['heart', 2],
    ]);
    // Off, twice: the second changes nothing.
    await reacted(b.access_token, msg.id, 'heart', false);
    const off = await reacted(b.access_token, msg.id, 'heart', false);
    expect(off.reactions.map((r) => [r.reaction, r.count])).toEqual([
      ['like', 1],
      ['heart', 1],
    ]);
    const mine = (await m.conversation(a.access_token, b.user.id)).messages.find((x) => x.id === msg.id);
    expect(mine?.reactions?.find((r) => r.reaction === 'heart')?.users).toEqual([
      { id: a.user.id, name: a.user.name },
    ]);
  });

  it('only members may react: 403 for an outsider, 404 for a missing or hidden message, 400 outside the set', async () => {
    const msg = await m.sent(a.access_token, b.user.id, 'личное');
    expect((await react(outsider.access_token, msg.id, 'like')).statusCode).toBe(403);
    expect((await react(outsider.access_token, msg.id, 'like', false)).statusCode).toBe(403);
    expect((await react(a.access_token, 99_999_999, 'like')).statusCode).toBe(404);
    expect((await react(a.access_token, msg.id, 'poop')).statusCode).toBe(400);
    // Deleted for oneself: gone for that member.
    await m.call(b.access_token, 'DELETE', apiUrl(messengerRoutes.remove, { id: msg.id }, { for: 'me' }));
    expect((await react(b.access_token, msg.id, 'like')).statusCode).toBe(404);
    // Nothing was stored by the refusals.
    expect((await reacted(a.access_token, msg.id, 'fire')).reactions).toEqual([
      { reaction: 'fire', count: 1, users: [{ id: a.user.id, name: a.user.name }] },
    ]);
  });

  it('reach the other member live, and every device of the reactor', async () => {
    const msg = await m.sent(a.access_token, b.user.id, 'живьём');
    const [a1, b1] = await Promise.all([
      openSocket(url, a.access_token, open),
      openSocket(url, b.access_token, open),
    ]);
    const toA = nextEvent<MessageReactionsEvent>(a1, 'message-reactions');
    const toB = nextEvent<MessageReactionsEvent>(b1, 'message-reactions');
    await reacted(b.access_token, msg.id, 'laugh');
    const [ea, eb] = await Promise.all([toA, toB]);
    expect(ea).toEqual({
      chat: { type: 'personal', user_id: b.user.id, is_favorites: false },
      message_id: msg.id,
      reactions: [{ reaction: 'laugh', count: 1, users: [{ id: b.user.id, name: b.user.name }] }],
    });
    expect(eb.chat.user_id).toBe(a.user.id);
  });

  it('work in favorites, groups and channels (subscribers react to posts)', async () => {
    const fav = await m.sent(a.access_token, a.user.id, 'себе');
    expect((await reacted(a.access_token, fav.id, 'fire')).reactions[0]?.count).toBe(1);
    expect((await react(b.access_token, fav.id, 'fire')).statusCode).toBe(403);

    const g = (await c.createGroup(a.access_token, { name: 'Реакции', member_ids: [b.user.id] })) as Group;
    const gm = await c.sent(a.access_token, { group_id: g.id }, 'в группе');
    const [a1] = await Promise.all([openSocket(url, a.access_token, open)]);
    const live = nextEvent<MessageReactionsEvent>(a1, 'message-reactions', (e) => e.message_id === gm.id);
    await reacted(b.access_token, gm.id, 'like');
    expect((await live).chat).toMatchObject({ type: 'group', user_id: g.id });
    expect((await react(outsider.access_token, gm.id, 'like')).statusCode).toBe(403);
    const page = (
      await c.call(a.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))
    ).json() as Message[];
    expect(page.find((x) => x.id === gm.id)?.reactions?.[0]).toMatchObject({ reaction: 'like', count: 1 });

    const ch = (await c.createChannel(a.access_token, {
      name: 'Канал реакций',
      slug: `react-${process.pid}-${a.user.id}`,
    })) as Channel;
    const post = await c.sent(a.access_token, { channel_id: ch.id }, 'пост');
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    expect((await reacted(b.access_token, post.id, 'heart')).reactions[0]?.count).toBe(1);
  });
});
