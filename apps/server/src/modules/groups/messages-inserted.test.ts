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

/**
 * Scans of the chats' and members' tables by one three-message insert, in a transaction with the given
 * `kadr.one_session`. Each locking statement is a scan of its own; the counts are this session's
 * (`pg_stat_xact_user_tables`), so other databases on the same server cannot move them.
 */
async function scansOfInsert(
  oneSession: 'on' | 'off',
  tag: string,
): Promise<{ chats: number; members: number }> {
  return db.kysely.transaction().execute(async (trx) => {
    await sql`select set_config('kadr.one_session', ${oneSession}, true)`.execute(trx);
    const scans = async () => {
      const { rows } = await sql<{ table: string; n: string }>`
        select relname as table, coalesce(idx_scan, 0) + coalesce(seq_scan, 0) as n
        from pg_stat_xact_user_tables where relname in ('conversations', 'conversation_members')`.execute(
        trx,
      );
      const of = (table: string) => Number(rows.find((r) => r.table === table)?.n ?? 0);
      return { chats: of('conversations'), members: of('conversation_members') };
    };
    const before = await scans();
    await sql`
      insert into messages (conversation_id, sender_id, content, temp_id)
      select ${chat}, ${sender}, 'текст', ${tag} || g from generate_series(1, 3) g`.execute(trx);
    const after = await scans();
    return { chats: after.chats - before.chats, members: after.members - before.members };
  });
}

it('keeps the chat counters exact either way', async () => {
  await scansOfInsert('on', 'counted-on-');
  await scansOfInsert('off', 'counted-off-');
  const { rows } = await sql<{ total: number; seen: number }>`
    select c.total_count as total, m.seen_count as seen from conversations c
    join conversation_members m on m.conversation_id = c.id and m.user_id = ${sender}
    where c.id = ${chat}`.execute(db.kysely);
  expect(rows[0]).toEqual({ total: 6, seen: 6 });
});

it('locks the chat and member rows only when the database may run other sessions', async () => {
  // The two locking statements read each table once more; nothing else differs between the two inserts.
  const alone = await scansOfInsert('on', 'alone-');
  const shared = await scansOfInsert('off', 'shared-');
  expect(shared.chats - alone.chats).toBe(1);
  expect(shared.members - alone.members).toBe(1);
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
