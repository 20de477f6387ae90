import type { AuthSession, MessageDeliveredEvent, MessageEvent } from '@kadr/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';
import { type ClientSocket, openSocket } from './sockets.ts';

let t: TestApp;
let url: string;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());
afterEach(() => {
  for (const s of open.splice(0)) s.disconnect();
});

const device = (base: string, token: string) => openSocket(base, token, open);

/**
 * The `event`s a socket receives: once `expected` have arrived (then a short grace that would catch a
 * duplicate), or, with no count, what arrived within `windowMs` (to show that nothing does).
 */
function collect<E extends 'new-message' | 'message-delivered'>(
  s: ClientSocket,
  event: E,
  { expected, windowMs = 500 }: { expected?: number; windowMs?: number } = {},
) {
  const got: Array<E extends 'new-message' ? MessageEvent : MessageDeliveredEvent> = [];
  return new Promise<typeof got>((resolve) => {
    const done = () => setTimeout(() => resolve(got), windowMs);
    const deadline = setTimeout(() => resolve(got), 20_000);
    s.on(event, ((e: never) => {
      got.push(e);
      if (got.length === expected) {
        clearTimeout(deadline);
        done();
      }
    }) as never);
    if (expected === undefined) {
      clearTimeout(deadline);
      done();
    }
  });
}

const users = (n: number) => Promise.all(Array.from({ length: n }, () => registerUser(t.app)));

describe('batched sends', () => {
  it('sends made together share a batch: ids ascend in the order sent, twins answer one message, each announced once', async () => {
    const [a, b, c] = (await users(3)) as [AuthSession, AuthSession, AuthSession];
    const svc = t.app.ctx.messenger.messages;
    const [b1, c1] = await Promise.all([device(url, b.access_token), device(url, c.access_token)]);
    const atB = collect(b1, 'new-message', { expected: 10 });
    const atC = collect(c1, 'new-message', { expected: 10 });
    const sends = Array.from({ length: 20 }, (_, i) =>
      svc.send(a.user.id, {
        other_user_id: i % 2 === 0 ? b.user.id : c.user.id,
        content: `пачка ${i}`,
        temp_id: `batch-${i}`,
      }),
    );
    const twin = svc.send(a.user.id, { other_user_id: b.user.id, content: 'пачка 0', temp_id: 'batch-0' });
    const sent = await Promise.all(sends);
    const ids = sent.map((x) => x.id);
    const ascending = (xs: number[]) => expect([...xs].sort((x, y) => x - y)).toEqual(xs);
    // Within one chat, in the order sent (the chats' first lookups may finish in either order).
    ascending(ids.filter((_, i) => i % 2 === 0));
    ascending(ids.filter((_, i) => i % 2 === 1));
    expect(new Set(ids).size).toBe(20);
    expect(sent.map((x) => x.content)).toEqual(Array.from({ length: 20 }, (_, i) => `пачка ${i}`));
    expect((await twin).id).toBe(ids[0]);
    expect((await atB).map((e) => e.message.id)).toEqual(ids.filter((_, i) => i % 2 === 0));
    expect((await atC).map((e) => e.message.id)).toEqual(ids.filter((_, i) => i % 2 === 1));
  });

  it('a bad send fails alone; the rest of its batch is stored', async () => {
    const [a, b] = (await users(2)) as [AuthSession, AuthSession];
    const svc = t.app.ctx.messenger.messages;
    const results = await Promise.allSettled([
      svc.send(a.user.id, { other_user_id: b.user.id, content: 'первое', temp_id: 'ok-1' }),
      // PostgreSQL text cannot hold NUL: the database refuses this row, and only this row.
      svc.send(a.user.id, { other_user_id: b.user.id, content: 'нуль \u0000 внутри', temp_id: 'bad-1' }),
      svc.send(a.user.id, { other_user_id: b.user.id, content: 'третье', temp_id: 'ok-2' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const history = await t.app.ctx.messenger.messages.conversation(b.user.id, a.user.id);
    expect(history.messages.map((x) => x.content)).toEqual(['первое', 'третье']);
  });
});

describe('coalesced delivery acks', () => {
  it('acks arriving together move the watermark once, to the highest id; a foreign ack in the batch is refused alone', async () => {
    const [a, b, c] = (await users(3)) as [AuthSession, AuthSession, AuthSession];
    const svc = t.app.ctx.messenger.messages;
    const sent = [];
    for (let i = 0; i < 5; i += 1)
      sent.push(
        await svc.send(a.user.id, { other_user_id: b.user.id, content: `м${i}`, temp_id: `ack-${i}` }),
      );
    const a1 = await device(url, a.access_token);
    const atA = collect(a1, 'message-delivered', { expected: 1 });
    const acks = await Promise.allSettled([
      ...sent.map((x) => svc.delivered(b.user.id, [x.id])),
      svc.delivered(c.user.id, [sent[0]!.id]),
    ]);
    expect(acks.map((r) => r.status)).toEqual([...sent.map(() => 'fulfilled'), 'rejected']);
    expect((acks[5] as PromiseRejectedResult).reason).toMatchObject({ status: 403 });
    expect(await atA).toEqual([
      { chat: { type: 'personal', user_id: b.user.id, is_favorites: false }, up_to_message_id: sent[4]!.id },
    ]);
    const member = await t.db.kysely
      .selectFrom('conversation_members')
      .select('last_delivered_id')
      .where('user_id', '=', b.user.id)
      .executeTakeFirstOrThrow();
    expect(member.last_delivered_id).toBe(sent[4]!.id);
    // An older ack afterwards changes nothing and announces nothing.
    const late = collect(a1, 'message-delivered', { windowMs: 300 });
    await svc.delivered(b.user.id, [sent[1]!.id]);
    expect(await late).toEqual([]);
  });
});

describe('shutdown', () => {
  it('close waits for sends and acks still in a batch, so nothing queries after the app is closed', async () => {
    const node = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' }, { db: t.db });
    const a = await registerUser(node.app);
    const b = await registerUser(node.app);
    const svc = node.app.ctx.messenger.messages;
    const first = await svc.send(a.user.id, { other_user_id: b.user.id, content: 'до', temp_id: 'close-0' });
    let settled = 0;
    const work = [
      ...Array.from({ length: 30 }, (_, i) =>
        svc.send(a.user.id, {
          other_user_id: b.user.id,
          content: `при закрытии ${i}`,
          temp_id: `close-${i + 1}`,
        }),
      ),
      svc.delivered(b.user.id, [first.id]),
    ].map((p) => p.finally(() => (settled += 1)));
    await node.close();
    expect(settled).toBe(work.length);
    await Promise.all(work);
  });
});
