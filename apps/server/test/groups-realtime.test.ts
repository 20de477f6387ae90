import type {
  AuthSession,
  GroupUpdatedEvent,
  MessageEvent,
  SendMessageResult,
  TypingEvent,
} from '@kadr/contract';
import { apiUrl } from '@kadr/contract';
import { groupsRoutes } from '@kadr/contract/groups/routes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, nextEvent, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
let c: ReturnType<typeof chats>;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  c = chats(t.app);
}, 180_000);
afterAll(() => t.close());
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});

const device = (token: string) => openSocket(url, token, open);

/** Resolves once `s` is in the room: a typing probe from `from` reaches it. */
async function untilInRoom(from: ClientSocket, to: ClientSocket, groupId: number) {
  for (let i = 0; i < 50; i += 1) {
    const got = nextEvent<TypingEvent>(to, 'typing', (e) => e.group_id === groupId, 100).then(
      () => true,
      () => false,
    );
    from.emit('typing', { group_id: groupId, is_typing: true });
    if (await got) return;
  }
  throw new Error('never joined the room');
}

describe('groups in real time', () => {
  let a: AuthSession;
  let b: AuthSession;
  let x: AuthSession;

  it('each member’s sockets get a group message exactly once; the sender’s own devices get the temp_id', async () => {
    [a, b, x] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Live', member_ids: [b.user.id, x.user.id] });
    const [a1, a2, b1, b2, x1] = await Promise.all([
      device(a.access_token),
      device(a.access_token),
      device(b.access_token),
      device(b.access_token),
      device(x.access_token),
    ]);
    await untilInRoom(b1, a1, g.id);
    await untilInRoom(a1, b2, g.id);
    await untilInRoom(a1, x1, g.id);
    const got = new Map<ClientSocket, MessageEvent[]>();
    for (const s of [a1, a2, b1, b2, x1]) {
      got.set(s, []);
      s.on('new-message', (e) => got.get(s)?.push(e));
    }
    const sent = await c.sent(a.access_token, { group_id: g.id }, 'всем', { temp_id: 'rt-1' });
    const everyone = [a1, a2, b1, b2, x1];
    for (let i = 0; i < 100 && everyone.some((s) => (got.get(s) ?? []).length === 0); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    // A later message marks the end: whatever the first produced has arrived by then.
    await c.sent(a.access_token, { group_id: g.id }, 'конец');
    for (let i = 0; i < 100 && everyone.some((s) => (got.get(s) ?? []).length < 2); i += 1)
      await new Promise((r) => setTimeout(r, 20));
    for (const s of everyone) {
      const first = (got.get(s) ?? []).filter((e) => e.message.id === sent.id);
      expect(first).toHaveLength(1);
      expect(first[0]?.chat).toEqual({ type: 'group', user_id: g.id, is_favorites: false });
    }
    expect(got.get(a2)?.[0]?.message.temp_id).toBe('rt-1');
    expect(got.get(b1)?.[0]?.message.temp_id).toBeUndefined();

    // Typing reaches the others with the typist's name, never the typist.
    const typing = nextEvent<TypingEvent>(b1, 'typing', (e) => e.sender_id === x.user.id);
    x1.emit('typing', { group_id: g.id, is_typing: true });
    expect(await typing).toMatchObject({ type: 'group-typing', group_id: g.id, sender_name: x.user.name });

    // A removed member's sockets leave the room at once: messages stop reaching them.
    const removed = nextEvent<GroupUpdatedEvent>(x1, 'group-updated', (e) => e.change === 'member-removed');
    await c.call(
      a.access_token,
      'DELETE',
      apiUrl(groupsRoutes.removeMember, { id: g.id, userId: x.user.id }),
    );
    await removed;
    const xGot: MessageEvent[] = [];
    x1.on('new-message', (e) => xGot.push(e));
    const bGets = nextEvent<MessageEvent>(b1, 'new-message', (e) => e.message.content === 'после удаления');
    await c.sent(a.access_token, { group_id: g.id }, 'после удаления');
    await bGets;
    await c.sent(a.access_token, { group_id: g.id }, 'и ещё');
    await nextEvent<MessageEvent>(b1, 'new-message', (e) => e.message.content === 'и ещё');
    expect(xGot).toEqual([]);
  });

  it('a socket send to the group reaches every socket but the one it came from, which has it in its ack', async () => {
    [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Эхо', member_ids: [b.user.id] });
    const [a1, a2, b1] = await Promise.all([
      device(a.access_token),
      device(a.access_token),
      device(b.access_token),
    ]);
    await untilInRoom(a1, b1, g.id);
    await untilInRoom(b1, a2, g.id);
    const got = new Map<ClientSocket, MessageEvent[]>([
      [a1, []],
      [a2, []],
      [b1, []],
    ]);
    for (const [s, list] of got) s.on('new-message', (e) => list.push(e));
    const result = await new Promise<SendMessageResult>((resolve) =>
      a1.emit('send-message', { group_id: g.id, content: 'эхо', temp_id: 'echo-1' }, resolve),
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.message.temp_id).toBe('echo-1');
    // A later message over HTTP marks the end: whatever the socket send produced has arrived by then.
    const end = await c.sent(a.access_token, { group_id: g.id }, 'конец');
    for (
      let i = 0;
      i < 100 && [a1, a2, b1].some((s) => !got.get(s)?.some((e) => e.message.id === end.id));
      i += 1
    )
      await new Promise((r) => setTimeout(r, 20));
    const of = (s: ClientSocket) => (got.get(s) ?? []).filter((e) => e.message.id === result.message.id);
    expect(of(a1)).toEqual([]);
    expect(of(a2).map((e) => e.message.temp_id)).toEqual(['echo-1']);
    expect(of(b1).map((e) => e.message.temp_id)).toEqual([undefined]);
  });

  it('a socket send to the group needs no lookup while in the room; once removed, the same socket is refused', async () => {
    [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Сокет', member_ids: [b.user.id] });
    const [a1, b1] = await Promise.all([device(a.access_token), device(b.access_token)]);
    await untilInRoom(a1, b1, g.id);
    let sent = 0;
    const send = (content: string) =>
      new Promise<SendMessageResult>((resolve) =>
        b1.emit('send-message', { group_id: g.id, content, temp_id: `s-${g.id}-${sent++}` }, resolve),
      );
    for (const content of ['раз', 'два']) {
      const got = nextEvent<MessageEvent>(a1, 'new-message', (e) => e.message.content === content);
      expect(await send(content)).toMatchObject({ ok: true });
      await got;
    }
    const removed = nextEvent<GroupUpdatedEvent>(b1, 'group-updated', (e) => e.change === 'member-removed');
    const res = await c.call(
      a.access_token,
      'DELETE',
      apiUrl(groupsRoutes.removeMember, { id: g.id, userId: b.user.id }),
    );
    expect(res.statusCode, res.body).toBe(200);
    await removed;
    const aGot: MessageEvent[] = [];
    // The group's own service line about the removal may still arrive; only b's words must not.
    a1.on('new-message', (e) => {
      if (e.message.message_type !== 'service') aGot.push(e);
    });
    expect(await send('три')).toMatchObject({ ok: false, status: 403 });
    await new Promise((r) => setTimeout(r, 200));
    expect(aGot).toEqual([]);
  });

  it('a group message asks a few members to confirm receipt; one confirmation shows it delivered', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    const [owner, ...members] = users as [AuthSession, ...AuthSession[]];
    const g = await c.createGroup(owner.access_token, {
      name: 'Кто подтвердит',
      member_ids: members.map((m) => m.user.id),
    });
    const sender = await device(owner.access_token);
    const sockets = await Promise.all(members.map((m) => device(m.access_token)));
    for (const s of sockets) await untilInRoom(sender, s, g.id);
    const events = sockets.map((s) =>
      nextEvent<MessageEvent>(s, 'new-message', (e) => e.chat.user_id === g.id),
    );
    const sent = await c.sent(owner.access_token, { group_id: g.id }, 'подтвердите');
    const got = await Promise.all(events);
    expect(got.every((e) => e.message.id === sent.id)).toBe(true);
    // Three of the five are asked (ACK_ASKED), the others need not answer: 3 acks, not 5.
    const asked = sockets.filter((_, i) => got[i]?.ack === true);
    expect(asked).toHaveLength(3);
    expect(got.filter((e) => e.ack === undefined)).toHaveLength(2);
    const history = async () =>
      (await c.call(owner.access_token, 'GET', apiUrl(groupsRoutes.messages, { id: g.id }))).json() as Array<{
        id: number;
        is_delivered: boolean;
      }>;
    expect((await history()).find((m) => m.id === sent.id)?.is_delivered).toBe(false);
    asked[0]?.emit('message-delivered', { message_ids: [sent.id] });
    let delivered = false;
    for (let i = 0; i < 100 && !delivered; i += 1) {
      delivered = (await history()).find((m) => m.id === sent.id)?.is_delivered === true;
      if (!delivered) await new Promise((r) => setTimeout(r, 20));
    }
    expect(delivered).toBe(true);

    // A group with fewer members here than are asked: everyone is asked, as before.
    const small = await c.createGroup(owner.access_token, {
      name: 'Малая',
      member_ids: [members[0]?.user.id],
    });
    const [first] = sockets;
    if (!first) throw new Error('no socket');
    await untilInRoom(sender, first, small.id);
    const one = nextEvent<MessageEvent>(first, 'new-message', (e) => e.chat.user_id === small.id);
    await c.sent(owner.access_token, { group_id: small.id }, 'вдвоём');
    expect((await one).ack).toBe(true);
  });

  it('a member added later joins the room on their open sockets', async () => {
    [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const g = await c.createGroup(a.access_token, { name: 'Позже' });
    const b1 = await device(b.access_token);
    const added = nextEvent<GroupUpdatedEvent>(b1, 'group-updated', (e) => e.change === 'member-added');
    await c.call(a.access_token, 'POST', apiUrl(groupsRoutes.addMembers, { id: g.id }), {
      user_ids: [b.user.id],
    });
    await added;
    const msg = nextEvent<MessageEvent>(b1, 'new-message', (e) => e.chat.user_id === g.id);
    await c.sent(a.access_token, { group_id: g.id }, 'привет новичку');
    expect((await msg).message.content).toBe('привет новичку');
  });
});
