import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers.ts';
import type { Db } from '../../db/database.ts';

// The insert trigger's row locks (migrations 0301, 0302): taken where other sessions may write, skipped on PGlite.
let db: Db;
let drop: () => Promise<void>;
let chat: number;
let sender: number;
beforeAll(async () => {
  ({ db, drop } = await testDatabase());
  const users = await sql<{ id: number }>`
    insert into users (username, name, password_hash)
    values ('trigger_a', 'A', 'x'), ('trigger_b', 'B', 'x') returning id`.execute(db.kysely);
  const [a, b] = users.rows.map((r) => r.id) as [number, number];
  sender = a;
  const conversation = await sql<{ id: number }>`
    insert into conversations (type, user_low, user_high) values ('personal', ${a}, ${b}) returning id`.execute(
    db.kysely,
  );
  chat = conversation.rows[0]?.id as number;
  await sql`insert into conversation_members (conversation_id, user_id) values (${chat}, ${a}), (${chat}, ${b})`.execute(
    db.kysely,
  );
});
afterAll(() => drop());

/** Write-ahead log bytes of one three-message insert, in a transaction with the given `kadr.one_session`. */
async function walOfInsert(oneSession: 'on' | 'off', tag: string): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    await sql`select set_config('kadr.one_session', ${oneSession}, true)`.execute(trx);
    const before = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(trx);
    await sql`
      insert into messages (conversation_id, sender_id, content, temp_id)
      select ${chat}, ${sender}, 'текст', ${tag} || g from generate_series(1, 3) g`.execute(trx);
    const bytes = await sql<{ n: string }>`
      select pg_current_wal_insert_lsn() - ${before.rows[0]?.lsn}::pg_lsn as n`.execute(trx);
    return Number(bytes.rows[0]?.n);
  });
}

it('keeps the chat counters exact either way', async () => {
  await walOfInsert('on', 'counted-on-');
  await walOfInsert('off', 'counted-off-');
  const { rows } = await sql<{ total: number; seen: number }>`
    select c.total_count as total, m.seen_count as seen from conversations c
    join conversation_members m on m.conversation_id = c.id and m.user_id = ${sender}
    where c.id = ${chat}`.execute(db.kysely);
  expect(rows[0]).toEqual({ total: 6, seen: 6 });
});

it('locks the chat and member rows only when the database may run other sessions', async () => {
  // Each row lock is a log record of its own; without them the same insert writes less.
  const alone = [];
  const shared = [];
  for (let i = 0; i < 3; i++) {
    alone.push(await walOfInsert('on', `alone-${i}-`));
    shared.push(await walOfInsert('off', `shared-${i}-`));
  }
  expect(Math.max(...alone)).toBeLessThan(Math.min(...shared));
});

it.runIf(!process.env.DATABASE_URL)(
  'runs alone on the embedded database, which starts with kadr.one_session=on',
  async () => {
    const { rows } = await sql<{
      on: string;
    }>`select current_setting('kadr.one_session', true) as on`.execute(db.kysely);
    expect(rows[0]?.on).toBe('on');
  },
);
