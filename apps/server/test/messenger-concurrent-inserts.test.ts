import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chats } from './groups-fixtures.ts';
import { createTestApp, registerUser, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

// On PostgreSQL the send path's batches go out on pooled connections, so several statements insert into
// one busy chat at once. Each insert's foreign-key check holds `for key share` on the chat's row, and the
// insert trigger then locks that row for its counters: a lock stronger than `for update` needs would
// conflict with the other batch's key-share lock and deadlock (one send failed with a 500 at 50 msg/s into
// a group of 1,000). On PGlite statements run one at a time and this passes trivially.
describe('batches inserted into one chat at once', () => {
  it('all land, with the chat counters exact', async () => {
    const [owner, member] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const group = await chats(t.app).createGroup(owner!.access_token, {
      name: 'Параллельно',
      is_public: false,
      member_ids: [member!.user.id],
    });
    const db = t.db.kysely;
    const statements = 24;
    const rows = 5;
    const results = await Promise.allSettled(
      Array.from({ length: statements }, (_, s) =>
        db
          .insertInto('messages')
          .values(
            Array.from({ length: rows }, (_, r) => ({
              conversation_id: group.id,
              sender_id: (s + r) % 2 === 0 ? owner!.user.id : member!.user.id,
              content: `пакет ${s}, строка ${r}`,
              temp_id: null,
              forwarded_from_id: null,
              edited_at: null,
              deleted_at: null,
            })),
          )
          .execute(),
      ),
    );
    const failures = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    expect(failures).toEqual([]);
    const chat = await db
      .selectFrom('conversations')
      .select(['total_count', 'last_message_id'])
      .where('id', '=', group.id)
      .executeTakeFirstOrThrow();
    const newest = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('conversation_id', '=', group.id)
      .executeTakeFirstOrThrow();
    expect(chat).toEqual({ total_count: statements * rows, last_message_id: newest.id });
  });
});
