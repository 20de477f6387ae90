// The embedded database's answers read by the server's driver (apps/server/src/db/pglite-wire.ts) against PGlite's own
// reading of the same answers (`execProtocolStream`, then `parseResults`), in this process: the same prepared
// statements, bound and run the same way, so the difference between the two is the reading alone.
import { isDeepStrictEqual } from 'node:util';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { WireReader } from '../apps/server/src/db/pglite-wire.ts';
import { row } from './lib.ts';

const ROUNDS = 7;
const wire = protocol.serialize;
const tail = [wire.describe({ type: 'P' }), wire.execute({}), wire.sync()];

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

interface Case {
  name: string;
  statement: string;
  /** The parameters of the n-th call. */
  values: (n: number) => string[];
  calls: number;
}

/** Microseconds of this process's CPU per call, the median of alternating rounds, for each way of reading. */
export async function pgliteWireBench(): Promise<string[]> {
  const pglite = new PGlite();
  await pglite.waitReady;
  await pglite.exec(`
    create table messages (
      id serial primary key, conversation_id int not null, sender_id int not null, content text not null,
      message_type text not null default 'text', temp_id text, reply_to_id int, views_count int not null default 0,
      created_at timestamptz not null default now(), edited_at timestamptz, deleted_at timestamptz);
    create index on messages (conversation_id, id);
    insert into messages (conversation_id, sender_id, content, temp_id)
    select g % 100, g % 7, 'Привет! Встречаемся завтра в 10:00 у входа в парк, сообщение ' || g, 'seed-' || g
    from generate_series(1, 10000) g;`);
  let sequence = 0;
  const cases: Case[] = [
    {
      name: 'send path: insert of 2 rows, 4 columns back',
      statement: `insert into messages (conversation_id, sender_id, content, temp_id)
        values ($1, $2, $3, $4), ($1, $2, $3, $5) returning id, created_at, sender_id, temp_id`,
      values: () => ['5', '3', 'Как дела? Всё в силе на завтра?', `t${++sequence}`, `t${++sequence}`],
      calls: 1500,
    },
    {
      name: 'one row by id, all columns',
      statement: 'select * from messages where id = $1',
      values: (n) => [String(1 + (n % 10000))],
      calls: 3000,
    },
    {
      name: 'a history page: 50 rows, all columns',
      statement: 'select * from messages where conversation_id = $1 order by id desc limit 50',
      values: (n) => [String(n % 100)],
      calls: 600,
    },
  ];
  const lines = [row(['answer', 'PGlite reads, µs CPU', 'the driver reads, µs CPU', 'ratio'])];
  for (const [i, c] of cases.entries()) {
    const name = `bench_${i}`;
    await pglite.execProtocolStream(concat([wire.parse({ text: c.statement, name }), wire.sync()]));
    const message = (n: number) => concat([wire.bind({ statement: name, values: c.values(n) }), ...tail]);
    const reader = new WireReader();
    const ours = async (n: number) => {
      await pglite.execProtocolRawStream(message(n), { syncToFs: false, onRawData: reader.collect });
      return reader.read(pglite.parsers).rows;
    };
    const theirs = async (n: number) => {
      const messages = await pglite.execProtocolStream(message(n), { syncToFs: false });
      return parse.parseResults(messages, pglite.parsers, { rowMode: 'object' })[0]?.rows ?? [];
    };
    // Both read the same rows (an insert's ids differ, so its reads are compared by shape).
    const [a, b] = [await ours(1), await theirs(1)];
    if (!c.statement.startsWith('insert') && !isDeepStrictEqual(a, b))
      throw new Error(`${c.name}: the rows differ`);
    if (a.length !== b.length || !isDeepStrictEqual(Object.keys(a[0] ?? {}), Object.keys(b[0] ?? {})))
      throw new Error(`${c.name}: the rows differ`);
    const rounds = { theirs: [] as number[], ours: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const way of round % 2 ? (['ours', 'theirs'] as const) : (['theirs', 'ours'] as const)) {
        const run = way === 'ours' ? ours : theirs;
        const started = process.cpuUsage();
        for (let n = 0; n < c.calls; n++) await run(n);
        const used = process.cpuUsage(started);
        rounds[way].push((used.user + used.system) / c.calls);
      }
    }
    const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] ?? 0;
    const [pgliteUs, oursUs] = [median(rounds.theirs), median(rounds.ours)];
    lines.push(row([c.name, pgliteUs, oursUs, oursUs / pgliteUs]));
  }
  await pglite.close();
  return lines;
}
