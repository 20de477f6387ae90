import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GroupUpdatedEvent, MessageEvent, TypingEvent } from '@kadr/contract';
import { apiUrl, settingsRoutes } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { bearer, registerUser } from './helpers.ts';
import { nextEvent, openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('groups scale-out suite');

describe.runIf(hasRedis)('groups on two nodes sharing Redis and the database', () => {
  let nodes: TwoNodes;
  beforeAll(async () => {
    nodes = await startTwoNodes({ PUSH_ALLOW_INSECURE_ENDPOINTS: 'true' });
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
  it('push recipients cached on node 2 follow a removal and an addition made on node 1', async () => {
    const pushed: string[] = [];
    const service = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        pushed.push(req.url ?? '');
        res.statusCode = 201;
        res.end();
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    try {
      const c1 = chats(nodes.one.app);
      const c2 = chats(nodes.two.app);
      const [a, m, x] = await Promise.all([
        registerUser(nodes.one.app),
        registerUser(nodes.one.app),
        registerUser(nodes.one.app),
      ]);
      for (const u of [m, x]) {
        const ecdh = createECDH('prime256v1');
        ecdh.generateKeys();
        const res = await nodes.one.app.inject({
          method: 'POST',
          url: apiUrl(settingsRoutes.pushSubscribe),
          headers: bearer(u.access_token),
          payload: {
            endpoint: `${base}/u-${u.user.id}`,
            keys: {
              p256dh: ecdh.getPublicKey().toString('base64url'),
              auth: randomBytes(16).toString('base64url'),
            },
          },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const g = await c1.createGroup(a.access_token, { name: 'Пуш', member_ids: [m.user.id] });
      const count = (u: typeof m) => pushed.filter((p) => p === `/u-${u.user.id}`).length;
      const sendOnTwo = async (content: string) => {
        await c2.sent(a.access_token, { group_id: g.id }, content);
        await nodes.two.app.ctx.events.idle();
      };
      await sendOnTwo('до');
      expect([count(m), count(x)]).toEqual([1, 0]);

      // The cache notices go out before the group-updated events (both through Redis): once node 2
      // relayed an event, its cache has dropped the group.
      const a2 = await openSocket(nodes.urlTwo, a.access_token, nodes.sockets);
      const updates = (change: GroupUpdatedEvent['change']) =>
        nextEvent<GroupUpdatedEvent>(a2, 'group-updated', (e) => e.change === change);
      const removed = updates('member-removed');
      const remove = apiUrl(groupsRoutes.removeMember, { id: g.id, userId: m.user.id });
      expect((await c1.call(a.access_token, 'DELETE', remove)).statusCode).toBe(200);
      await removed;
      const added = updates('member-added');
      const add = apiUrl(groupsRoutes.addMembers, { id: g.id });
      expect((await c1.call(a.access_token, 'POST', add, { user_ids: [x.user.id] })).statusCode).toBe(200);
      await added;
      await sendOnTwo('после');
      expect([count(m), count(x)]).toEqual([1, 1]);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
