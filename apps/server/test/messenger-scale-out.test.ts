import type { MessageDeliveredEvent, MessageEvent, SendMessageResult } from '@kadr/contract';
import { apiUrl, messengerRoutes, profileRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, openSocket, redisReachable, startTwoNodes, type TwoNodes } from './sockets.ts';

const hasRedis = await redisReachable('messenger scale-out suite');

describe.runIf(hasRedis)('messenger on two nodes sharing Redis and the database (per-node caches)', () => {
  let nodes: TwoNodes;
  let one: TestApp;
  let two: TestApp;
  let urlOne: string;
  let urlTwo: string;

  beforeAll(async () => {
    nodes = await startTwoNodes();
    ({ one, two, urlOne, urlTwo } = nodes);
  });
  afterAll(() => nodes.close());

  const device = (base: string, token: string) => openSocket(base, token, nodes.sockets);

  const next = <T>(s: ClientSocket, event: 'new-message' | 'message-delivered') =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event}`)), 4000);
      s.once(event, ((e: T) => {
        clearTimeout(timer);
        resolve(e);
      }) as never);
    });

  const pairChats = async (x: number, y: number) =>
    nodes.db.kysely
      .selectFrom('conversations')
      .select('id')
      .where('user_low', '=', Math.min(x, y))
      .where('user_high', '=', Math.max(x, y))
      .execute();

  it('a chat cached on one node is the chat the other finds; messages and acks cross nodes', async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(two.app);
    const a1 = await device(urlOne, a.access_token);
    const b2 = await device(urlTwo, b.access_token);

    const atB = next<MessageEvent>(b2, 'new-message');
    const first = await new Promise<SendMessageResult>((resolve) =>
      a1.emit(
        'send-message',
        { other_user_id: b.user.id, content: 'с первого узла', temp_id: 'n1-1' },
        resolve,
      ),
    );
    if (!first.ok) throw new Error(first.error);
    expect((await atB).message.id).toBe(first.message.id);

    // Node two has never seen this chat or message: its ack looks them up, the receipt crosses back.
    const delivered = next<MessageDeliveredEvent>(a1, 'message-delivered');
    const ack = await new Promise<{ ok: boolean }>((resolve) =>
      b2.emit('message-delivered', { message_ids: [first.message.id] }, resolve),
    );
    expect(ack).toEqual({ ok: true });
    expect(await delivered).toMatchObject({ up_to_message_id: first.message.id });

    const atA = next<MessageEvent>(a1, 'new-message');
    const reply = await two.app.inject({
      method: 'POST',
      url: apiUrl(messengerRoutes.send),
      headers: bearer(b.access_token),
      payload: { other_user_id: a.user.id, content: 'со второго', temp_id: 'n2-1' },
    });
    expect(reply.statusCode).toBe(200);
    expect((await atA).message.content).toBe('со второго');
    // A second send on node one goes through its cache into the same chat.
    const again = await one.app.ctx.messenger.messages.send(a.user.id, {
      other_user_id: b.user.id,
      content: 'снова',
      temp_id: 'n1-2',
    });
    expect(await pairChats(a.user.id, b.user.id)).toHaveLength(1);
    const history = await two.app.ctx.messenger.messages.conversation(b.user.id, a.user.id);
    expect(history.messages.map((x) => x.id)).toEqual([first.message.id, reply.json().message.id, again.id]);
  });

  it('both nodes opening a new chat at once agree on one conversation', async () => {
    const a = await registerUser(one.app);
    const b = await registerUser(two.app);
    const sends = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? one.app.ctx.messenger.messages.send(a.user.id, {
              other_user_id: b.user.id,
              content: `а${i}`,
              temp_id: `r-${i}`,
            })
          : two.app.ctx.messenger.messages.send(b.user.id, {
              other_user_id: a.user.id,
              content: `б${i}`,
              temp_id: `r-${i}`,
            }),
      ),
    );
    const chats = await pairChats(a.user.id, b.user.id);
    expect(chats).toHaveLength(1);
    const history = await one.app.ctx.messenger.messages.conversation(a.user.id, b.user.id);
    expect(history.messages.map((x) => x.id).sort((x, y) => x - y)).toEqual(
      sends.map((x) => x.id).sort((x, y) => x - y),
    );
  });

  it('a new message shows its sender as renamed on another node, although that node kept the old name', async () => {
    const a = await registerUser(one.app, undefined, 'Старое имя');
    const b = await registerUser(two.app);
    const send = (content: string, temp_id: string) =>
      two.app.ctx.messenger.messages.send(a.user.id, { other_user_id: b.user.id, content, temp_id });
    expect((await send('до', 'rename-1')).sender_name).toBe('Старое имя');
    // Node one keeps the old name too.
    await one.app.ctx.messenger.messages.send(a.user.id, {
      other_user_id: b.user.id,
      content: 'до',
      temp_id: 'rename-0',
    });

    const renamed = await one.app.inject({
      method: 'PATCH',
      url: apiUrl(profileRoutes.update),
      headers: bearer(a.access_token),
      payload: { name: 'Новое имя' },
    });
    expect(renamed.statusCode).toBe(200);
    // The node that made the change forgets the old name at once.
    const here = await one.app.ctx.messenger.messages.send(a.user.id, {
      other_user_id: b.user.id,
      content: 'здесь',
      temp_id: 'rename-here',
    });
    expect(here.sender_name).toBe('Новое имя');
    // The change crosses the bus to node two; until it does, node two may still show the old name.
    await expect
      .poll(async () => (await send('после', `rename-${Date.now()}`)).sender_name, { timeout: 4000 })
      .toBe('Новое имя');
  });
});
