// An HTTP send to a group or channel asks nobody whether the sender may write once this node found them
// allowed (messenger/room-writers.ts); every membership or rights change forgets it, here and on every node.
import { apiUrl } from '@kadr/contract';
import { channelsRoutes } from '@kadr/contract/channels/routes';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const CACHED = { AUTH_RATE_LIMIT_PER_IP: '1000', FEED_CACHE_TTL_MS: '600000' };

describe('HTTP sends to groups and channels use the known writers', () => {
  let t: TestApp;
  let c: ReturnType<typeof chats>;
  beforeAll(async () => {
    t = await createTestApp(CACHED);
    c = chats(t.app);
  }, 180_000);
  afterAll(() => t.close());

  /** Takes `userId` out of the chat behind the cache's back (no notice): only the cache still says "member". */
  const dropRowBehindTheCache = (conversationId: number, userId: number) =>
    t.db.kysely
      .deleteFrom('conversation_members')
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', userId)
      .execute();

  it('a group member found allowed sends without a lookup; a removal through the API refuses the next send', async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Кэш', member_ids: [b.user.id] });
    await c.sent(b.access_token, { group_id: g.id }, 'первое');
    // The row is gone but nothing said so: the send still goes through, so it did not look the member up.
    await dropRowBehindTheCache(g.id, b.user.id);
    await c.sent(b.access_token, { group_id: g.id }, 'второе');
    // Back in through the API (a notice), then removed through the API: refused at once.
    await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [b.user.id],
    });
    await c.sent(b.access_token, { group_id: g.id }, 'снова участник');
    expect((await c.removeMember(a.access_token, g.id, b.user.id)).statusCode).toBe(200);
    expect((await c.send(b.access_token, { group_id: g.id }, 'после удаления')).statusCode).toBe(403);
  });

  it('a channel administrator whose post right is taken back is refused on the next post', async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const ch = await c.createChannel(a.access_token, { name: 'Кэш-канал', slug: `writers-${process.pid}-1` });
    await c.call(b.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    const rights = { can_post: true, can_edit_others: false, can_delete_others: false };
    await c.appointAdmin(a.access_token, ch.id, b, rights);
    await c.sent(b.access_token, { channel_id: ch.id }, 'можно');
    const edited = await c.call(
      a.access_token,
      'PATCH',
      apiUrl(channelsRoutes.updateAdmin, { id: ch.id, userId: b.user.id }),
      { ...rights, can_post: false },
    );
    expect(edited.statusCode).toBe(200);
    expect((await c.send(b.access_token, { channel_id: ch.id }, 'уже нельзя')).statusCode).toBe(403);
    // A subscriber who never could post is refused every time (a refusal is not remembered either way).
    const x = await registerUser(t.app);
    await c.call(x.access_token, 'POST', apiUrl(channelsRoutes.subscribe, { id: ch.id }));
    for (const text of ['нет', 'и снова нет'])
      expect((await c.send(x.access_token, { channel_id: ch.id }, text)).statusCode).toBe(403);
  });
});

const hasRedis = await redisReachable('room writers scale-out suite');

describe.runIf(hasRedis)('known writers on two nodes sharing Redis and the database', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes(CACHED);
  }, 180_000);
  afterAll(() => nodes.close());

  it('a member known on node 2 and removed on node 1 is refused on node 2', async () => {
    const c1 = chats(nodes.one.app);
    const c2 = chats(nodes.two.app);
    const [a, b] = await Promise.all([registerUser(nodes.one.app), registerUser(nodes.one.app)]);
    const g = await c1.createGroup(a.access_token, { name: 'Два узла', member_ids: [b.user.id] });
    await c2.sent(b.access_token, { group_id: g.id }, 'с узла 2');
    expect((await c1.removeMember(a.access_token, g.id, b.user.id)).statusCode).toBe(200);
    // The notice crosses Redis after the removal's answer: node 2 forgets within moments (a cache that
    // never heard would let all 50 through).
    let status = 0;
    for (let i = 0; i < 50 && status !== 403; i += 1) {
      status = (await c2.send(b.access_token, { group_id: g.id }, `после удаления ${i}`)).statusCode;
      if (status !== 403) await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(403);
  });
});
