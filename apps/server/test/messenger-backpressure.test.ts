import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, testDatabase } from './helpers.ts';
import { messenger } from './messenger-fixtures.ts';

// Issue 33: with the insert queue backed up, a send is refused at once (429 server_busy, Retry-After),
// never queued for seconds, and a refused send stores nothing. A zero wait makes any queueing count.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MESSAGE_SEND_QUEUE_MAX_WAIT_MS: '0', RATE_LIMITS: 'message.send=10000/1m' });
});
afterAll(() => t.close());

it('refuses sends with 429 server_busy while the insert queue waits, and stores only the accepted ones', async () => {
  const a = await registerUser(t.app);
  const b = await registerUser(t.app);
  const m = messenger(t.app);
  await m.sent(a.access_token, b.user.id, 'first: the pair is known');
  const answers = await Promise.all(
    Array.from({ length: 80 }, (_, i) => m.send(a.access_token, b.user.id, `burst ${i}`)),
  );
  const statuses = answers.map((r) => r.statusCode);
  expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  const refused = answers.filter((r) => r.statusCode === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.json()).toMatchObject({
      code: 'server_busy',
      error: 'Сервер сейчас перегружен. Сообщение отправится чуть позже',
    });
    expect(r.headers['retry-after']).toBe('1');
  }
  const accepted = answers.filter((r) => r.statusCode === 200).length;
  const stored = await m.conversation(a.access_token, b.user.id, { limit: 100 });
  expect(stored.messages.filter((x) => x.content.startsWith('burst ')).length).toBe(accepted);
});

it('refuses a first message to a new chat while statements queue for the database, and creates no chat', async () => {
  // What the wait watch reads off a backed-up database (db/wait-watch.test.ts measures it on both engines).
  let waiting = 0;
  const { db, drop } = await testDatabase();
  const busy = await createTestApp({}, { db: { ...db, waitingMs: () => waiting } });
  try {
    const a = await registerUser(busy.app);
    const b = await registerUser(busy.app);
    const m = messenger(busy.app);
    waiting = 600;
    const refused = await m.send(a.access_token, b.user.id, 'a new chat while the database is backed up');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'server_busy' });
    expect(refused.headers['retry-after']).toBe('1');
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from conversations where type = 'personal'`.execute(db.kysely);
    expect(rows[0]?.n).toBe(0);
    waiting = 400;
    await m.sent(a.access_token, b.user.id, 'the same chat once the queue is short');
    const chats = (await m.chats(b.access_token)).filter((c) => c.type === 'personal');
    expect(chats.map((c) => c.last_message?.content)).toEqual(['the same chat once the queue is short']);
  } finally {
    await busy.close();
    await drop();
  }
});

it('refuses new sends while a crowd of first messages to new chats waits, and stores only the accepted', async () => {
  // A new chat's lookups are statements one after another, so no single statement need wait long: the
  // oldest of the sends in progress is what shows the queue. The database's own wait is held at 0 here, and
  // the first messages are held up by a transaction locking the chats' table until the second wave is in.
  const { db, drop } = await testDatabase();
  const flood = await createTestApp(
    {
      // Long enough for all of the first wave to get in on a loaded machine, short enough to wait out.
      MESSAGE_SEND_QUEUE_MAX_WAIT_MS: '300',
      RATE_LIMITS: 'message.send=10000/1m,message.new-chat=10000/1m',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    },
    { db: { ...db, waitingMs: () => 0 } },
  );
  try {
    const a = await registerUser(flood.app);
    const others = [];
    for (let i = 0; i < 25; i += 1) others.push(await registerUser(flood.app));
    const m = messenger(flood.app);
    await m.sent(a.access_token, a.user.id, 'a note to self: the sender is known to every cache');
    let release = () => {};
    const held = db.kysely.transaction().execute(async (trx) => {
      await sql`lock table conversations in access exclusive mode`.execute(trx);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((r) => setTimeout(r, 20));
    const first = others.slice(0, 20).map((b, i) => m.send(a.access_token, b.user.id, `first ${i}`));
    await new Promise((r) => setTimeout(r, 700));
    const late = others.slice(20).map((b, i) => m.send(a.access_token, b.user.id, `late ${i}`));
    await new Promise((r) => setTimeout(r, 50));
    release();
    await held;
    expect((await Promise.all(first)).map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    for (const r of await Promise.all(late)) {
      expect(r.statusCode).toBe(429);
      expect(r.json()).toMatchObject({ code: 'server_busy' });
    }
    const { rows } = await sql<{ chats: number; late: number }>`
      select (select count(*)::int from conversations where type = 'personal') as chats,
             (select count(*)::int from messages where content like 'late %') as late`.execute(db.kysely);
    expect(rows[0]).toEqual({ chats: 20, late: 0 });
  } finally {
    await flood.close();
    await drop();
  }
});
