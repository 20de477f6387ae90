import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Demo seeding runs: one row per «Добавить демо-контент» (or `npm run seed:demo`), its progress and outcome. */
export const demoMigrations: Record<string, Migration> = {
  '2300-demo-seedings': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table demo_seedings (
          id serial primary key,
          asker_id integer references users(id) on delete set null,
          status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
          done integer not null default 0,
          total integer not null default 0,
          error text,
          created_at timestamptz not null default now(),
          finished_at timestamptz
        )`.execute(db);
      // One run at a time: a second press (or a second node) joins the run in progress.
      await sql`create unique index demo_seedings_one_active on demo_seedings ((true))
        where status in ('queued', 'running')`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop table demo_seedings`.execute(db);
    },
  },
};
