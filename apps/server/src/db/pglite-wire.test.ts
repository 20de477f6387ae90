import { type PGlite, protocol } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AnyDatabase as Any, pgliteWithDriver } from './pglite-test-kit.ts';
import { bindAndRun, WireReader } from './pglite-wire.ts';

let pglite: PGlite;
let db: Kysely<Any>;
beforeAll(async () => {
  ({ pglite, db } = await pgliteWithDriver());
  await sql`create table notes (id serial primary key, body text not null, at timestamptz default now())`.execute(
    db,
  );
  await sql`create table once (k text constraint once_k primary key, n int check (n > 0))`.execute(db);
});
afterAll(() => db.destroy());

/** One extended-protocol call as the driver makes it, unnamed. */
const call = (text: string, values: string[] = []) =>
  new Uint8Array(
    Buffer.concat([
      protocol.serialize.parse({ text }),
      protocol.serialize.bind({ values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]),
  );

it('reads an answer that arrives a byte at a time as the same rows', async () => {
  await db
    .insertInto('notes')
    .values([{ body: 'первая' }, { body: 'вторая, с "кавычками"' }])
    .execute();
  const reader = new WireReader();
  await pglite.execProtocolRawStream(call('select id, body, at from notes order by id'), {
    syncToFs: false,
    onRawData: (chunk) => {
      for (let i = 0; i < chunk.byteLength; i++) reader.collect(chunk.subarray(i, i + 1));
    },
  });
  const reply = reader.read<{ id: number; body: string; at: Date }>(pglite.parsers);
  const theirs = await pglite.query('select id, body, at from notes order by id');
  expect(reply.rows).toEqual(theirs.rows);
  expect(reply.rows[0]?.at).toBeInstanceOf(Date);
  expect(reply.command).toBe('SELECT');
  expect(reply.affectedRows).toBe(0);
});

it('keeps a column named __proto__ a column of the row, as PGlite does', async () => {
  const [ours] = (await sql<Any>`select 1 as "__proto__", 2 as n`.execute(db)).rows;
  const [theirs] = (await pglite.query<Any>('select 1 as "__proto__", 2 as n')).rows;
  expect(Object.getPrototypeOf(ours)).toBe(Object.prototype);
  expect(Object.entries(ours)).toEqual(Object.entries(theirs));
  expect(Object.entries(ours)).toEqual([
    ['__proto__', 1],
    ['n', 2],
  ]);
});

it('grows its buffer for a large answer and still reads a small one after it', async () => {
  const big = 'ж'.repeat(600_000); // 1.2 MB in UTF-8, past the buffer it keeps
  const { id } = await db.insertInto('notes').values({ body: big }).returning('id').executeTakeFirstOrThrow();
  const rows = await db.selectFrom('notes').select('body').where('id', '<=', id).orderBy('id').execute();
  expect(rows.at(-1)?.body).toBe(big);
  expect(await db.selectFrom('notes').select('body').where('id', '=', 1).execute()).toEqual([
    { body: 'первая' },
  ]);
});

it('throws PGlite’s own DatabaseError with every field PGlite’s query gives it', async () => {
  await db.insertInto('once').values({ k: 'a', n: 1 }).execute();
  const caught = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      return err as Record<string, unknown>;
    }
    throw new Error('expected a refusal');
  };
  const fields = (err: Record<string, unknown>) => ({
    name: err.name,
    message: err.message,
    severity: err.severity,
    code: err.code,
    detail: err.detail,
    schema: err.schema,
    table: err.table,
    constraint: err.constraint,
    routine: err.routine,
    constructor: err.constructor,
  });
  const ours = await caught(() => db.insertInto('once').values({ k: 'a', n: 2 }).execute());
  const theirs = await caught(() => pglite.query("insert into once (k, n) values ('a', 2)"));
  expect(fields(ours)).toEqual(fields(theirs));
  expect(ours).toMatchObject({ code: '23505', constraint: 'once_k', detail: 'Key (k)=(a) already exists.' });
  const check = await caught(() => db.insertInto('once').values({ k: 'b', n: 0 }).execute());
  expect(check).toMatchObject({ code: '23514', constraint: 'once_n_check', table: 'once' });
});

it('skips notices: the statement’s own rows and count come through', async () => {
  await sql`
    create function noisy() returns trigger language plpgsql as $$
    begin raise notice 'шум %', new.body; return new; end $$`.execute(db);
  await sql`create trigger noisy before insert on notes for each row execute function noisy()`.execute(db);
  const rows = await db
    .insertInto('notes')
    .values([{ body: 'с уведомлением' }, { body: 'ещё одно' }])
    .returning('body')
    .execute();
  expect(rows).toEqual([{ body: 'с уведомлением' }, { body: 'ещё одно' }]);
  const result = await db
    .updateTable('notes')
    .set({ body: 'x' })
    .where('body', '=', 'ещё одно')
    .executeTakeFirst();
  expect(result.numUpdatedRows).toBe(1n);
});

it('writes a Bind and its run as PGlite’s serializer does: names, nulls, empty and multi-byte values', () => {
  const run = [
    protocol.serialize.describe({ type: 'P' }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ];
  for (const [statement, values] of [
    ['kadr_12', ['42', null, '', 'Привет, мир — ёж 🦔', '{"a":[1,"два"]}']],
    ['', []],
    ['kadr_7', [null]],
  ] as Array<[string, Array<string | null>]>) {
    const theirs = Buffer.concat([protocol.serialize.bind({ statement, values }), ...run]);
    const ours = Buffer.from(bindAndRun(statement, values));
    // pg-protocol writes one text format code per value, ours none (text for all): the same Bind to Postgres.
    const withoutFormats = (b: Buffer) => {
      const nameEnd = b.indexOf(0, 6);
      const formats = b.readInt16BE(nameEnd + 1);
      const body = Buffer.concat([
        b.subarray(5, nameEnd + 1),
        Buffer.from([0, 0]),
        b.subarray(nameEnd + 3 + 2 * formats),
      ]);
      return body;
    };
    expect(withoutFormats(ours).toString('hex')).toBe(withoutFormats(theirs).toString('hex'));
    expect(ours.readInt32BE(1)).toBe(ours.indexOf(0x44, 5) - 1); // Bind's length ends where Describe starts
  }
});

it('refuses a torn answer instead of returning the rows before the tear', async () => {
  const reader = new WireReader();
  await pglite.execProtocolRawStream(call('select id, body from notes order by id'), {
    syncToFs: false,
    onRawData: (chunk) => reader.collect(chunk.subarray(0, chunk.byteLength - 3)),
  });
  expect(() => reader.read(pglite.parsers)).toThrow('torn protocol message');
  // The next answer is read whole: nothing of the torn one is left behind.
  await pglite.execProtocolRawStream(call('select 1 as one'), { syncToFs: false, onRawData: reader.collect });
  expect(reader.read(pglite.parsers).rows).toEqual([{ one: 1 }]);
});
