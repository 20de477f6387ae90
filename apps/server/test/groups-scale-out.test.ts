import type { GroupUpdatedEvent, MessageEvent, TypingEvent } from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { registerUser } from './helpers.ts';
import { nextEvent, openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('groups scale-out suite');

describe.runIf(hasRedis)('groups on two nodes sharing Redis and the database', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes();
  });
  afterAll(() => nodes.close());

  it('a member removed on node 1 stops receiving on node 2 at once; the others still receive', async () => {
    const c1 = chats(nodes.one.app);
    const [a, b, x] = await Promise.all([
      registerUser(nodes.one.app),
      registerUser(nodes.one.app),
      registerUser(nodes.one.app),
    ]);
    const g = await c1.createGroup(a.access_token, { name: 'Два узла', member_ids: [b.user.id, x.user.id] });
    const b2 = await openSocket(nodes.urlTwo, b.access_token, nodes.sockets);
    const x2 = await openSocket(nodes.urlTwo, x.access_token, nodes.sockets);
    const a1 = await openSocket(nodes.urlOne, a.access_token, nodes.sockets);
    // Both are in the room on node 2 once a typing probe from node 1 reaches them.
    for (const s of [b2, x2]) {
      let reached = false;
      for (let i = 0; i < 50 && !reached; i += 1) {
        const got = nextEvent<TypingEvent>(s, 'typing', () => true, 100).then(
          () => true,
          () => false,
        );
        a1.emit('typing', { group_id: g.id, is_typing: true });
        reached = await got;
      }
      expect(reached).toBe(true);
    }
    const first = nextEvent<MessageEvent>(x2, 'new-message', (e) => e.chat.user_id === g.id);
    await c1.sent(a.access_token, { group_id: g.id }, 'до');
    await first;

    const removed = nextEvent<GroupUpdatedEvent>(x2, 'group-updated', (e) => e.change === 'member-removed');
    expect(
      (
        await c1.call(
          a.access_token,
          'DELETE',
          apiUrl(groupsRoutes.removeMember, { id: g.id, userId: x.user.id }),
        )
      ).statusCode,
    ).toBe(200);
    await removed;
    const xGot: MessageEvent[] = [];
    x2.on('new-message', (e) => xGot.push(e));
    await c1.sent(a.access_token, { group_id: g.id }, 'после');
    await nextEvent<MessageEvent>(b2, 'new-message', (e) => e.message.content === 'после');
    await c1.sent(a.access_token, { group_id: g.id }, 'и ещё');
    await nextEvent<MessageEvent>(b2, 'new-message', (e) => e.message.content === 'и ещё');
    expect(xGot).toEqual([]);
    expect(
      (await chats(nodes.two.app).call(x.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id })))
        .statusCode,
    ).toBe(403);
  });
});
