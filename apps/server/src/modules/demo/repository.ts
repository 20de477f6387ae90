import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

/** SQL of the demo capability: seeding runs and the two facts the offer depends on. */
export function demoRepository(db: Kysely<Database>) {
  const columns = [
    'id',
    'asker_id',
    'status',
    'done',
    'total',
    'error',
    'created_at',
    'finished_at',
  ] as const;
  return {
    /** The instance's first account: the oldest one still there. */
    async firstUserId(): Promise<number | null> {
      const row = await db.selectFrom('users').select('id').orderBy('id').limit(1).executeTakeFirst();
      return row?.id ?? null;
    },

    latest(askerId: number | null) {
      let q = db.selectFrom('demo_seedings').select(columns);
      q = askerId === null ? q.where('asker_id', 'is', null) : q.where('asker_id', '=', askerId);
      return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
    },

    active() {
      return db
        .selectFrom('demo_seedings')
        .select(columns)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
    },

    /** A new run, or null when one is in progress already (the partial unique index decides). */
    async start(askerId: number | null, enqueue: (id: number, trx: Kysely<Database>) => Promise<unknown>) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('demo_seedings')
          .values({ asker_id: askerId, error: null, finished_at: null })
          .onConflict((oc) =>
            oc.expression(sql`(true)`).where('status', 'in', ['queued', 'running']).doNothing(),
          )
          .returning(columns)
          .executeTakeFirst();
        if (row) await enqueue(row.id, trx);
        return row ?? null;
      });
    },

    async postId(userId: number, caption: string): Promise<number | null> {
      const row = await db
        .selectFrom('posts')
        .select('id')
        .where('user_id', '=', userId)
        .where('caption', '=', caption)
        .executeTakeFirst();
      return row?.id ?? null;
    },

    /** `user_id\ncaption` of every story newer than `since` that is not failed. */
    async liveStories(since: Date): Promise<Set<string>> {
      const rows = await db
        .selectFrom('stories')
        .select(['user_id', 'caption'])
        .where('created_at', '>', since)
        .where('status', '!=', 'failed')
        .execute();
      return new Set(rows.map((r) => `${r.user_id}\n${r.caption}`));
    },

    async username(userId: number): Promise<string | null> {
      const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
      return row?.username ?? null;
    },

    async anyPost(): Promise<boolean> {
      return (await db.selectFrom('posts').select('id').limit(1).executeTakeFirst()) !== undefined;
    },

    byId(id: number) {
      return db.selectFrom('demo_seedings').select(columns).where('id', '=', id).executeTakeFirst();
    },

    progress(id: number, fields: { status?: 'running'; done?: number; total?: number }) {
      return db.updateTable('demo_seedings').set(fields).where('id', '=', id).execute();
    },

    finish(id: number, status: 'done' | 'failed', error: string | null) {
      return db
        .updateTable('demo_seedings')
        .set({ status, error, finished_at: new Date() })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
    },
  };
}

export type DemoRepository = ReturnType<typeof demoRepository>;
export type DemoSeedingRow = NonNullable<Awaited<ReturnType<DemoRepository['byId']>>>;
