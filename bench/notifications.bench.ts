// Notifications: what storing them costs a like, and what reading a page of them costs.
// 1. 200 likes/s on one post for 10 s (2,000 distinct users) with notifications on and off (the module's
//    listeners detached): like p99 and throughput, the ratio on/off, and how long the listeners needed
//    after the last like to catch up. Aim: throughput ratio ≥ 0.8.
// 2. GET /notifications?limit=20 for a user with 10,000 stored vs a bare Fastify route. Aim: ratio ≥ 0.25.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/database.ts';
import { hashToken } from '../apps/server/src/modules/auth/tokens.ts';
import {
  createTestApp,
  registerUser,
  type TestApp,
  tempDir,
  testDatabase,
} from '../apps/server/test/helpers.ts';
import { load, row } from './lib.ts';

type Engine = 'pglite' | 'postgres';
const LIKERS = 2000;

async function open(engine: Engine) {
  if (engine === 'postgres') process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  else delete process.env.DATABASE_URL;
  const database = await testDatabase();
  const t = await createTestApp(
    { AUTH_RATE_LIMIT_PER_IP: '1000000', DATA_DIR: tempDir('kadr-bench-') },
    { db: database.db },
  );
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const owner = await registerUser(t.app, 'bench_owner', 'Владелец');
  return {
    t,
    url,
    owner,
    db: database.db,
    async close() {
      await t.close();
      await database.drop();
    },
  };
}

async function seedPost(db: Db, userId: number): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into posts (user_id, caption, media_type, status)
    values (${userId}, 'Бенчмарк', 'photo', 'done') returning id`.execute(db.kysely);
  const id = rows[0]!.id;
  await sql`insert into post_files (post_id, position, file_type, file_url, thumbnail_url)
    values (${id}, 0, 'image', '/media/bench.webp', '/media/bench-t.webp')`.execute(db.kysely);
  return id;
}

/** `n` users with one session each, inserted directly (argon2 per user would take minutes). */
async function seedUsers(db: Db, n: number, prefix: string): Promise<{ ids: number[]; tokens: string[] }> {
  const ids: number[] = [];
  const tokens: string[] = [];
  for (let start = 0; start < n; start += 1000) {
    const count = Math.min(1000, n - start);
    const users = await db.kysely
      .insertInto('users')
      .values(
        Array.from({ length: count }, (_, i) => ({
          username: `${prefix}_${start + i}`,
          name: `Лайкер ${start + i}`,
          password_hash: 'x',
          avatar_url: null,
          avatar_thumbnail_url: null,
          last_seen: null,
        })),
      )
      .returning('id')
      .execute();
    const batch = users.map((_, i) => `${prefix}-token-${start + i}`);
    await db.kysely
      .insertInto('sessions')
      .values(
        users.map((u, i) => ({
          user_id: u.id,
          token_hash: hashToken(batch[i]!),
          user_agent: 'bench',
          revoked_at: null,
        })),
      )
      .execute();
    ids.push(...users.map((u) => u.id));
    tokens.push(...batch);
  }
  await sql`analyze`.execute(db.kysely);
  return { ids, tokens };
}

interface LikeRun {
  rps: number;
  p99: number;
  errors: number;
  drainMs: number;
  text: string;
}

async function likeRun(engine: Engine, notifications: boolean): Promise<LikeRun> {
  const s = await open(engine);
  try {
    if (!notifications) s.t.app.ctx.notifications.detach();
    const postId = await seedPost(s.db, s.owner.user.id);
    const { tokens } = await seedUsers(s.db, LIKERS, 'liker');
    let next = 0;
    const started = performance.now();
    const result = await autocannon({
      url: `${s.url}/api/v1/media/post/${postId}/like`,
      method: 'POST',
      connections: 20,
      overallRate: 200,
      amount: LIKERS,
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` },
          }),
        },
      ],
    });
    const elapsed = (performance.now() - started) / 1000;
    const drainFrom = performance.now();
    await s.t.app.ctx.events.idle();
    const drainMs = performance.now() - drainFrom;
    const page = await s.t.app.ctx.notifications.service.list(s.owner.user.id, 0, 1);
    return {
      rps: (result.requests.total - result.non2xx) / elapsed,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      drainMs,
      text: page.groups.flatMap((g) => g.items)[0]?.text ?? '—',
    };
  } finally {
    await s.close();
  }
}

async function seedNotifications(t: TestApp, db: Db, ownerId: number, n: number) {
  const postId = await seedPost(db, ownerId);
  const { ids } = await seedUsers(db, 50, 'actor');
  await sql`insert into notifications (user_id, actor_id, type, post_id, snippet, created_at)
    select ${ownerId}, (${sql.val(ids)}::int[])[1 + g % 50],
      (array['like','comment','follow','repost','mention'])[1 + g % 5],
      case when g % 5 = 2 then null else ${postId}::int end,
      case when g % 5 in (1, 4) then 'Комментарий номер ' || g else '' end,
      now() - (g || ' seconds')::interval
    from generate_series(1, ${n}) g`.execute(db.kysely);
  await sql`analyze`.execute(db.kysely);
  void t;
}

export async function notificationsBench(engines: Engine[]): Promise<string[]> {
  const lines = [
    '200 likes/s on one post for 10 s (2,000 users), notifications on vs off:',
    row(['engine', 'off rps', 'on rps', 'ratio', 'off p99 ms', 'on p99 ms', 'drain ms', 'errors']),
  ];
  const texts: string[] = [];
  for (const engine of engines) {
    const off = await likeRun(engine, false);
    const on = await likeRun(engine, true);
    lines.push(
      row([engine, off.rps, on.rps, on.rps / off.rps, off.p99, on.p99, on.drainMs, off.errors + on.errors]),
    );
    texts.push(`${engine}: the owner sees '${on.text}'`);
  }
  lines.push(...texts);
  lines.push(
    '',
    'GET /notifications?limit=20 with 10,000 stored vs bare Fastify (autocannon, 50 conns 8 s):',
  );
  lines.push(row(['engine', 'bare rps', 'list rps', 'ratio', 'p99 ms', 'errors']));
  for (const engine of engines) {
    const s = await open(engine);
    const bare = Fastify({ logger: false });
    bare.get('/bare', async () => ({ id: 1, username: 'bare', name: 'Bare', followers_count: 0 }));
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    try {
      await seedNotifications(s.t, s.db, s.owner.user.id, 10_000);
      const headers = { authorization: `Bearer ${s.owner.access_token}` };
      const url = `${s.url}/api/v1/notifications?limit=20`;
      const check = await s.t.app.inject({ method: 'GET', url: '/api/v1/notifications?limit=20', headers });
      const body = check.json() as { unread_total: number };
      if (check.statusCode !== 200 || body.unread_total !== 10_000)
        throw new Error(`unexpected ${check.body}`);
      await load(url, { duration: 2, headers }); // warm-up
      const b = await load(`${bareUrl}/bare`);
      const list = await load(url, { headers });
      lines.push(row([engine, b.rps, list.rps, list.rps / b.rps, list.p99, list.errors + list.non2xx]));
    } finally {
      await bare.close();
      await s.close();
    }
  }
  return lines;
}
