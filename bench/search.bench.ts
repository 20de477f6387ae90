import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { type Db, migrateToLatest, openDatabase } from '../apps/server/src/db/database.ts';
import { moduleMigrations } from '../apps/server/src/modules/index.ts';
import { cyrillicToLatin, swapLayout } from '../apps/server/src/modules/search/query-forms.ts';
import { searchRepository } from '../apps/server/src/modules/search/repository.ts';
import { searchService } from '../apps/server/src/modules/search/service.ts';
import { percentile, row } from './lib.ts';

/**
 * Search at scale: seeds posts (captions of real Russian words from the evaluation set) and users, then times each
 * query kind through the search service next to a plain ILIKE over the captions.
 * Parameters (environment): SEARCH_BENCH_ENGINES=pglite,postgres; SEARCH_BENCH_POSTS (default 100,000 on PGlite,
 * 1,000,000 on PostgreSQL); SEARCH_BENCH_USERS (default 100,000); SEARCH_BENCH_QUERIES per kind (default 40);
 * SEARCH_BENCH_KINDS (e.g. people,typo; default all); SEARCH_BENCH_DATABASE_URL or DATABASE_URL for PostgreSQL (default postgres://postgres@127.0.0.1:5432/postgres; a
 * fresh database is made and dropped — kept with SEARCH_BENCH_KEEP=1, and SEARCH_BENCH_SEEDED=<its url> times
 * queries on it again without seeding; SEARCH_BENCH_BASELINE=off skips the ILIKE baseline).
 */
export async function searchBench(): Promise<string[]> {
  const engines = (process.env.SEARCH_BENCH_ENGINES ?? 'pglite,postgres').split(',') as Array<
    'pglite' | 'postgres'
  >;
  const lines = [
    row(['engine', 'posts', 'users', 'seed s', 'kind', 'p50 ms', 'p95 ms', 'ILIKE p50', 'ILIKE p95', 'load']),
  ];
  for (const engine of engines) lines.push(...(await run(engine)));
  return lines;
}

const fixture = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '../apps/server/test/fixtures/search-eval.json'), 'utf8'),
) as { docs: string[]; queries: Array<{ kind: string; query: string; word: string }> };

async function open(
  engine: 'pglite' | 'postgres',
): Promise<{ db: Db; seeded: boolean; drop(): Promise<void> }> {
  const seededUrl = process.env.SEARCH_BENCH_SEEDED;
  if (engine === 'postgres' && seededUrl) {
    // Seeding 1,000,000 posts takes minutes on a shared machine: a database kept by SEARCH_BENCH_KEEP is reused.
    const db = await openDatabase({ databaseUrl: seededUrl, pgliteDir: null, poolSize: 4 });
    return { db, seeded: true, drop: async () => undefined };
  }
  if (engine === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kadr-search-bench-'));
    const db = await openDatabase({ databaseUrl: null, pgliteDir: dir });
    return { db, seeded: false, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const admin =
    process.env.SEARCH_BENCH_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kadr_search_bench_${process.pid}`;
  const adminDb = await openDatabase({ databaseUrl: admin, pgliteDir: null, poolSize: 1 });
  await sql.raw(`create database ${name}`).execute(adminDb.kysely);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString(), pgliteDir: null, poolSize: 4 });
  return {
    db,
    seeded: false,
    async drop() {
      if (process.env.SEARCH_BENCH_KEEP) console.log(`search bench: kept ${url.toString()}`);
      else await sql.raw(`drop database if exists ${name} with (force)`).execute(adminDb.kysely);
      await adminDb.close();
    },
  };
}

async function run(engine: 'pglite' | 'postgres'): Promise<string[]> {
  const posts = Number(process.env.SEARCH_BENCH_POSTS ?? (engine === 'postgres' ? 1_000_000 : 100_000));
  const users = Number(process.env.SEARCH_BENCH_USERS ?? 100_000);
  const perKind = Number(process.env.SEARCH_BENCH_QUERIES ?? 40);
  const { db: live, seeded, drop } = await open(engine);
  try {
    await migrateToLatest(live, moduleMigrations());
    const started = performance.now();
    if (!seeded) await seed(live, posts, users);
    const seedS = (performance.now() - started) / 1000;

    const repo = searchRepository(live.kysely);
    const service = searchService({
      repo,
      limits: { consume: async () => undefined } as never,
      posts: async () => [],
    });
    const sample = (kind: string) => fixture.queries.filter((q) => q.kind === kind).slice(0, perKind);
    const kinds: Array<[string, string[]]> = [
      ['exact', sample('exact').map((q) => q.query)],
      ['wordform', sample('wordform').map((q) => q.query)],
      ['layout', sample('layout').map((q) => q.query)],
      ['translit', sample('translit').map((q) => q.query)],
      ['typo', sample('typo').map((q) => q.query)],
      [
        'people',
        sample('exact').map(
          (_, i) =>
            [`петров`, 'smirnova', swapLayout('кузнецов'), cyrillicToLatin('Лебедева'), 'морозва'][
              i % 5
            ] as string,
        ),
      ],
    ];
    const only = process.env.SEARCH_BENCH_KINDS?.split(',');
    const out: string[] = [];
    for (const [kind, queries] of kinds) {
      if (only && !only.includes(kind)) continue;
      const times: number[] = [];
      const baseline: number[] = [];
      for (const q of queries) {
        const t0 = performance.now();
        if (kind === 'people') await repo.people(1, [q], 20, 0);
        else await service.findPostIds(1, q, { limit: 21 });
        times.push(performance.now() - t0);
        if (process.env.SEARCH_BENCH_BASELINE === 'off') continue;
        const t1 = performance.now();
        await repo.postsIlike(q, { viewerId: 1, sleep: false }, 21);
        baseline.push(performance.now() - t1);
      }
      out.push(
        row([
          engine,
          posts,
          users,
          seedS.toFixed(0),
          kind,
          percentile(times, 50),
          percentile(times, 95),
          percentile(baseline, 50),
          percentile(baseline, 95),
          // The machine is shared: the 1-minute load average beside the figures says how far to trust them.
          os.loadavg()[0]?.toFixed(1) ?? '',
        ]),
      );
    }
    return out;
  } finally {
    await live.close().catch(() => undefined);
    await drop();
  }
}

/** Users with ten first names and eight surnames; posts of eight words each from the evaluation's text. */
async function seed(live: Db, posts: number, users: number): Promise<void> {
  const words = [...new Set(fixture.docs.flatMap((d) => d.toLowerCase().match(/[а-яё]+/g) ?? []))];
  const names = [
    'Иван',
    'Мария',
    'Пётр',
    'Ольга',
    'Алексей',
    'Наталья',
    'Дмитрий',
    'Елена',
    'Сергей',
    'Анна',
  ];
  const surnames = ['Петров', 'Смирнова', 'Кузнецов', 'Попова', 'Соколов', 'Лебедева', 'Новиков', 'Морозова'];
  const batch = 20_000;
  for (let from = 0; from < users; from += batch) {
    await sql`insert into users (username, name, password_hash)
      select 'bench_' || i, (${names}::text[])[1 + i % 10] || ' ' || (${surnames}::text[])[1 + (i / 10) % 8] || ' ' || i, 'x'
      from generate_series(${from}::int, ${Math.min(users, from + batch) - 1}::int) i`.execute(live.kysely);
  }
  for (let from = 0; from < posts; from += batch) {
    await sql`insert into posts (user_id, caption, media_type, status, ai_tags)
      select 1 + (g.i % ${users}), c.caption || case when g.i % 7 = 0 then ' #котики' else '' end,
        'photo', 'done', case when g.i % 5 = 0 then array['cats'] else '{}'::text[] end
      from generate_series(${from}::int, ${Math.min(posts, from + batch) - 1}::int) g(i)
      cross join lateral (
        -- Correlated with the row (g.i), so every post gets its own eight words.
        select string_agg((${words}::text[])[1 + floor(random() * ${words.length})::int], ' ') as caption
        from generate_series(1, 8) k where g.i >= 0
      ) c`.execute(live.kysely);
  }
  // As the embedded upkeep does every few minutes (PGLITE_MAINTENANCE_MS), and autovacuum on PostgreSQL: GIN
  // pending lists merged, statistics fresh.
  await sql`vacuum analyze`.execute(live.kysely);
}
