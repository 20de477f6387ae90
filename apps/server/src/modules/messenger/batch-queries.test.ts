import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers.ts';
import type { Db } from '../../db/database.ts';

// The delivery-ack update's plan on the embedded database, which plans for cached pages (random_page_cost 1.1,
// db/database.ts): a few members' rows are found by the index, not by reading every member of every chat.
let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await testDatabase());
  await sql`insert into users (username, name, password_hash)
    select 'plan_' || g, 'U', 'x' from generate_series(1, 1000) g`.execute(db.kysely);
  await sql`insert into conversations (type, user_low, user_high)
    select 'personal', u.id, u.id + 500 from users u where u.username like 'plan_%'
    order by u.id limit 500`.execute(db.kysely);
  await sql`insert into conversation_members (conversation_id, user_id)
    select id, user_low from conversations union all select id, user_high from conversations`.execute(
    db.kysely,
  );
  await sql`analyze conversation_members`.execute(db.kysely);
});
afterAll(() => drop());

it.runIf(!process.env.DATABASE_URL)(
  'moves eight delivered watermarks by index probes, not a scan of every member',
  async () => {
    const { rows: members } = await sql<{ conversation_id: number; user_id: number }>`
      select conversation_id, user_id from conversation_members order by conversation_id, user_id limit 8`.execute(
      db.kysely,
    );
    const moves = sql.join(members.map((m) => sql`(${m.conversation_id}::int, ${m.user_id}::int, 1::int)`));
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain update conversation_members cm set last_delivered_id = v.up_to
      from (values ${moves}) as v(conversation_id, user_id, up_to)
      where cm.conversation_id = v.conversation_id and cm.user_id = v.user_id and cm.last_delivered_id < v.up_to`.execute(
      db.kysely,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan/);
    expect(plan).not.toMatch(/Seq Scan on conversation_members/);
  },
);
