// Chat list cost with groups and channels: GET /messages/chats for a user with many chats, paged, beside
// a bare Fastify route, and the list query as it was before stored unread counts (per-chat correlated
// count and a last-message probe for every chat) run on the same data.
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/database.ts';
import { createTestApp, registerUser, testDatabase } from '../apps/server/test/helpers.ts';
import { load, row } from './lib.ts';

/** Seeds `personal` chats, `groups` groups and `channels` channels for `userId`, 3 messages each. */
export async function seed(
  db: Db,
  userId: number,
  counts: { personal: number; groups: number; channels: number },
) {
  const k = db.kysely;
  const others = await k
    .insertInto('users')
    .values(
      Array.from({ length: counts.personal }, (_, i) => ({
        username: `peer_${i}`,
        name: `Собеседник ${i}`,
        password_hash: 'x',
        avatar_url: null,
        avatar_thumbnail_url: null,
        last_seen: null,
      })),
    )
    .returning('id')
    .execute();
  const conv: { id: number; other: number }[] = [];
  for (let s = 0; s < others.length; s += 1000) {
    const part = others.slice(s, s + 1000);
    const rows = await k
      .insertInto('conversations')
      .values(
        part.map((o) => ({
          type: 'personal' as const,
          user_low: Math.min(userId, o.id),
          user_high: Math.max(userId, o.id),
        })),
      )
      .returning(['id', 'user_low', 'user_high'])
      .execute();
    for (const r of rows)
      conv.push({
        id: r.id,
        other: r.user_low === userId ? (r.user_high as number) : (r.user_low as number),
      });
  }
  const rooms: number[] = [];
  for (const [type, n] of [
    ['group', counts.groups],
    ['channel', counts.channels],
  ] as const) {
    if (n === 0) continue;
    const rows = await k
      .insertInto('conversations')
      .values(
        Array.from({ length: n }, (_, i) => ({
          type,
          user_low: null,
          user_high: null,
          title: `${type} ${i}`,
        })),
      )
      .returning('id')
      .execute();
    rooms.push(...rows.map((r) => r.id));
  }
  const members = [
    ...conv.flatMap((c) => [
      { conversation_id: c.id, user_id: userId },
      { conversation_id: c.id, user_id: c.other },
    ]),
    ...rooms.map((id) => ({ conversation_id: id, user_id: userId })),
  ];
  for (let s = 0; s < members.length; s += 2000)
    await k
      .insertInto('conversation_members')
      .values(members.slice(s, s + 2000))
      .execute();
  const sender = others[0]?.id ?? userId;
  const msgs = [
    ...conv.flatMap((c) =>
      [0, 1, 2].map((j) => ({
        conversation_id: c.id,
        sender_id: j === 1 ? userId : c.other,
        content: `сообщение ${j}`,
      })),
    ),
    ...rooms.flatMap((id) =>
      [0, 1, 2].map((j) => ({ conversation_id: id, sender_id: sender, content: `пост ${j}` })),
    ),
  ];
  for (let s = 0; s < msgs.length; s += 2000)
    await k
      .insertInto('messages')
      .values(msgs.slice(s, s + 2000))
      .execute();
  await sql`analyze`.execute(k);
}

/** The chat list query before this change (personal chats only; unread counted per chat on every read). */
const before = (userId: number) => sql`
  select c.id, (select count(*)::int from messages x
      where x.conversation_id = c.id and x.id > me.last_read_id and x.sender_id <> me.user_id
        and x.id > me.cleared_up_to and x.deleted_at is null
        and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = x.id)) as unread
  from conversation_members me
  join conversations c on c.id = me.conversation_id
  left join conversation_members pm on pm.conversation_id = c.id and pm.user_id <> me.user_id
  join users u on u.id = coalesce(pm.user_id, me.user_id)
  left join lateral (
    select m.id, m.created_at from messages m
    where m.conversation_id = c.id and m.id > me.cleared_up_to and m.deleted_at is null
      and not exists (select 1 from message_hidden h where h.user_id = me.user_id and h.message_id = m.id)
    order by m.id desc limit 1
  ) lm on true
  where me.user_id = ${userId}
  order by me.pin_order asc nulls last, coalesce(lm.created_at, c.created_at) desc, c.id desc`;

async function timeIt(times: number, fn: () => Promise<unknown>): Promise<{ mean: number; p95: number }> {
  const xs: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return { mean: xs.reduce((a, b) => a + b, 0) / xs.length, p95: xs[Math.floor(xs.length * 0.95)] as number };
}

export async function groupsBench(
  engines: Array<'pglite' | 'postgres'>,
  shapes = [
    { label: '5,000 personal', personal: 5000, groups: 0, channels: 0 },
    { label: '500 + 500 + 500', personal: 500, groups: 500, channels: 500 },
  ],
): Promise<string[]> {
  const lines = [row(['engine', 'chats', 'what', 'req/s', 'p99 ms', 'ratio vs bare'])];
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ id: 1, username: 'bare', name: 'Bare', followers_count: 0 }));
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
  const base = await load(`${bareUrl}/bare`, { connections: 10, duration: 5 });
  for (const engine of engines) {
    if (engine === 'postgres' && !process.env.DATABASE_URL)
      process.env.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
    if (engine === 'pglite') delete process.env.DATABASE_URL;
    for (const shape of shapes) {
      const database = await testDatabase();
      const t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000000' }, { db: database.db });
      const me = await registerUser(t.app, 'bench_lister', 'Список');
      await seed(database.db, me.user.id, shape);
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const headers = { authorization: `Bearer ${me.access_token}` };
      const old = await timeIt(10, () => before(me.user.id).execute(database.db.kysely));
      lines.push(row([engine, shape.label, 'list query before', 1000 / old.mean, old.p95, '']));
      const whole = await timeIt(10, () => t.app.inject({ url: '/api/v1/messages/chats', headers }));
      lines.push(row([engine, shape.label, 'GET unpaged', 1000 / whole.mean, whole.p95, '']));
      // The bare route again right before: on a shared machine the load moves within minutes, so the
      // ratio is taken against a baseline measured beside it.
      const near = await load(`${bareUrl}/bare`, { connections: 10, duration: 5 });
      lines.push(row([engine, shape.label, 'GET /bare (beside)', near.rps, near.p99, '1.00']));
      const paged = await load(`${url}/api/v1/messages/chats?limit=50`, {
        connections: 10,
        duration: 5,
        headers,
      });
      lines.push(
        row([engine, shape.label, 'GET limit=50', paged.rps, paged.p99, (paged.rps / near.rps).toFixed(2)]),
      );
      // Beside it, the app's health route through the same hooks (public; it also asks the database and the
      // realtime adapter): what any route of this app costs here, which the bare route does not pay.
      const floor = await load(`${url}/api/v1/health`, { connections: 10, duration: 5, headers });
      lines.push(
        row([
          engine,
          shape.label,
          'GET /health (app)',
          floor.rps,
          floor.p99,
          (floor.rps / near.rps).toFixed(2),
        ]),
      );
      await t.close();
      await database.drop();
    }
  }
  lines.push(row(['bare', '', 'GET /bare', base.rps, base.p99, '1.00']));
  await bare.close();
  return lines;
}
