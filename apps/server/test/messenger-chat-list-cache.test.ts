import type { AuthSession, ChatListItem } from '@kadr/contract';
import { apiUrl, messengerRoutes, profileRoutes } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app-types.ts';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

/** Both cached forms of the list from its start (the web's unpaged list and the first page of 50). */
async function lists(app: App, token: string): Promise<ChatListItem[]> {
  const c = chats(app);
  const page = await c.call(token, 'GET', apiUrl(messengerRoutes.chats, undefined, { limit: 50 }));
  if (page.statusCode !== 200) throw new Error(`${page.statusCode} ${page.body}`);
  const paged = (page.json() as { chats: ChatListItem[] }).chats;
  const all = await c.list(token);
  expect(all).toEqual(paged);
  return paged;
}

const roomRow = (list: ChatListItem[], id: number) =>
  list.find((c) => (c.type === 'group' || c.type === 'channel') && c.user_id === id);

/** Written behind the services' backs: only a read that skips the cache sees it. */
const renameBehindTheBack = (app: App, id: number, title: string) =>
  sql`update conversations set title = ${title} where id = ${id}`.execute(app.ctx.db.kysely);

describe('the chat list from its start is read through a per-node cache that every write drops', () => {
  let t: TestApp;
  let a: AuthSession;
  let b: AuthSession;
  let c: AuthSession;
  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000', FEED_CACHE_TTL_MS: '600000' });
    [a, b, c] = [
      await registerUser(t.app, undefined, 'Анна'),
      await registerUser(t.app, undefined, 'Борис'),
      await registerUser(t.app, undefined, 'Вера'),
    ];
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('serves a repeat read from the cache, and shows every change to a group at once', async () => {
    const api = chats(t.app);
    const g = await api.createGroup(a.access_token, { name: 'Клуб', member_ids: [b.user.id] });
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.username).toBe('Клуб');
    await renameBehindTheBack(t.app, g.id, 'Тайно');
    // Cached: the title written behind the service's back is not seen.
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.username).toBe('Клуб');

    const m = await api.sent(a.access_token, { group_id: g.id }, 'привет');
    let row = roomRow(await lists(t.app, b.access_token), g.id);
    expect(row).toMatchObject({ username: 'Тайно', unread_count: 1, last_message: { content: 'привет' } });

    expect(
      (
        await api.call(a.access_token, 'PATCH', apiUrl(messengerRoutes.edit, { id: m.id }), {
          content: 'правка',
        })
      ).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.last_message?.content).toBe('правка');

    expect((await api.call(b.access_token, 'POST', apiUrl(groupsRoutes.read, { id: g.id }))).statusCode).toBe(
      200,
    );
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.unread_count).toBe(0);
    // A's last message is read once someone else read it: A's own list says so.
    await lists(t.app, a.access_token);
    const second = await api.sent(a.access_token, { group_id: g.id }, 'второе');
    expect(roomRow(await lists(t.app, a.access_token), g.id)?.last_message?.is_read).toBe(false);
    expect((await api.call(b.access_token, 'POST', apiUrl(groupsRoutes.read, { id: g.id }))).statusCode).toBe(
      200,
    );
    expect(roomRow(await lists(t.app, a.access_token), g.id)?.last_message?.is_read).toBe(true);

    expect(
      (
        await api.call(
          a.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: second.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.last_message?.content).toBe('правка');

    expect(
      (await api.call(a.access_token, 'PATCH', apiUrl(groupsRoutes.update, { id: g.id }), { name: 'Клуб 2' }))
        .statusCode,
    ).toBe(200);
    row = roomRow(await lists(t.app, b.access_token), g.id);
    expect(row?.username).toBe('Клуб 2');

    expect(
      (await api.call(b.access_token, 'POST', apiUrl(messengerRoutes.pin), { group_id: g.id })).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), g.id)?.is_pinned).toBe(true);

    // Members: the count on everyone's list, and the chat leaves and comes back on the member's own.
    await lists(t.app, c.access_token);
    expect(
      (
        await api.call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
          user_ids: [c.user.id],
        })
      ).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, c.access_token), g.id)).toBeDefined();
    expect(roomRow(await lists(t.app, b.access_token), g.id)).toMatchObject({
      group_data: { memberCount: 3 },
    });
    expect(
      (
        await api.call(
          a.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: c.user.id }),
        )
      ).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, c.access_token), g.id)).toBeUndefined();
    expect(roomRow(await lists(t.app, b.access_token), g.id)).toMatchObject({
      group_data: { memberCount: 2 },
    });

    expect(
      (await api.call(a.access_token, 'DELETE', apiUrl(groupsRoutes.remove, { id: g.id }))).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), g.id)).toBeUndefined();
  });

  it('shows a channel’s rights, a new personal chat and a peer’s new name at once', async () => {
    const api = chats(t.app);
    const ch = await api.createChannel(a.access_token, { name: 'Новости', slug: `news_${Date.now()}` });
    expect(
      (await api.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }))).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), ch.id)).toMatchObject({
      channel_data: { can_post: false },
    });
    expect(
      (
        await api.appointAdmin(a.access_token, ch.id, b, {
          can_post: true,
          can_edit_others: false,
          can_delete_others: false,
        })
      ).statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), ch.id)).toMatchObject({
      channel_data: { can_post: true },
    });
    expect(
      (await api.call(b.access_token, 'DELETE', apiUrl(channelsRoutes.unsubscribe, { id: ch.id })))
        .statusCode,
    ).toBe(200);
    expect(roomRow(await lists(t.app, b.access_token), ch.id)).toBeUndefined();

    // Someone new writes: the chat was on no cached page of either.
    const before = await lists(t.app, b.access_token);
    expect(before.some((x) => x.type === 'personal' && x.user_id === c.user.id)).toBe(false);
    await api.sent(c.access_token, { other_user_id: b.user.id }, 'знакомство');
    const withC = (await lists(t.app, b.access_token)).find(
      (x) => x.type === 'personal' && x.user_id === c.user.id,
    );
    expect(withC).toMatchObject({ username: 'Вера', unread_count: 1 });

    expect(
      (await api.call(c.access_token, 'PATCH', apiUrl(profileRoutes.update), { name: 'Вера Н.' })).statusCode,
    ).toBe(200);
    const renamed = (await lists(t.app, b.access_token)).find(
      (x) => x.type === 'personal' && x.user_id === c.user.id,
    );
    expect(renamed?.username).toBe('Вера Н.');

    expect(
      (await api.call(b.access_token, 'POST', apiUrl(messengerRoutes.read), { other_user_id: c.user.id }))
        .statusCode,
    ).toBe(200);
    expect(
      (await lists(t.app, b.access_token)).find((x) => x.type === 'personal' && x.user_id === c.user.id)
        ?.unread_count,
    ).toBe(0);
  });
});

const hasRedis = await redisReachable('chat list cache scale-out');

describe.runIf(hasRedis)('the chat list cache on two nodes sharing Redis and the database', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes({ FEED_CACHE_TTL_MS: '600000' });
  }, 240_000);
  afterAll(() => nodes.close());

  it('a change made on node 1 drops node 2’s cached page at once', async () => {
    const one = chats(nodes.one.app);
    const [a, b] = [await registerUser(nodes.one.app), await registerUser(nodes.one.app)];
    const g = await one.createGroup(a.access_token, { name: 'Узлы', member_ids: [b.user.id] });
    expect(roomRow(await lists(nodes.two.app, b.access_token), g.id)?.username).toBe('Узлы');
    await renameBehindTheBack(nodes.two.app, g.id, 'Тайно');
    expect(roomRow(await lists(nodes.two.app, b.access_token), g.id)?.username).toBe('Узлы');

    await one.sent(a.access_token, { group_id: g.id }, 'с первого узла');
    await expect
      .poll(async () => roomRow(await lists(nodes.two.app, b.access_token), g.id)?.last_message?.content, {
        timeout: 2000,
      })
      .toBe('с первого узла');
    expect(
      (
        await one.call(
          a.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: b.user.id }),
        )
      ).statusCode,
    ).toBe(200);
    await expect
      .poll(async () => roomRow(await lists(nodes.two.app, b.access_token), g.id), { timeout: 2000 })
      .toBeUndefined();
  });
});
