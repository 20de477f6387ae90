import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { defineModule } from '../module.ts';
import { registerPrivateFiles } from './private-files.ts';
import { sweepMedia, sweepTemp } from './sweeps.ts';

export const PRUNE_JOBS = 'jobs.prune';
export const SWEEP_MEDIA = 'media.sweep';
const STARTED = new Date();
const HOUR = 60 * 60 * 1000;

/**
 * The media pipeline's share of the schema and its scheduled upkeep, on the media module's job queue: pruning
 * finished jobs (more sweeps join here). Scheduling is safe from every node: one pending run per kind.
 */
export const mediaPipelineModule = defineModule({
  name: 'mediaPipeline',
  migrations: {
    '0600-mediapipe-scheduled-jobs': {
      async up(db: Kysely<unknown>) {
        await sql`alter table jobs add column unique_key text`.execute(db);
        // At most one pending (queued or running) job per key: scheduled kinds insert with ON CONFLICT DO NOTHING.
        await sql`create unique index jobs_unique_pending on jobs (unique_key) where status in ('queued', 'running')`.execute(
          db,
        );
        await sql`create index jobs_finished_idx on jobs (finished_at) where status in ('done', 'failed')`.execute(
          db,
        );
      },
      async down(db: Kysely<unknown>) {
        await sql`drop index if exists jobs_finished_idx`.execute(db);
        await sql`drop index if exists jobs_unique_pending`.execute(db);
        await sql`alter table jobs drop column unique_key`.execute(db);
      },
    },
    '0600-mediapipe-attachment-jobs': {
      async up(db: Kysely<unknown>) {
        await sql`alter table message_files add column status text not null default 'ready'`.execute(db);
        // The unsent-upload sweep finds its rows by age.
        await sql`create index message_files_unsent_idx on message_files (created_at) where message_id is null`.execute(
          db,
        );
      },
      async down(db: Kysely<unknown>) {
        await sql`drop index if exists message_files_unsent_idx`.execute(db);
        await sql`alter table message_files drop column status`.execute(db);
      },
    },
    '0600-mediapipe-app-secrets': {
      async up(db: Kysely<unknown>) {
        // Secrets every node must share (the attachment URL signing key), created by the first node to start.
        await sql`create table app_secrets (name text primary key, value text not null)`.execute(db);
      },
      async down(db: Kysely<unknown>) {
        await sql`drop table app_secrets`.execute(db);
      },
    },
  },
  async register(api, ctx) {
    await registerPrivateFiles(api, ctx);
    const { jobs } = ctx.media;
    const retentionMs = ctx.config.jobs.retentionMs;
    jobs.register(
      PRUNE_JOBS,
      {
        async run() {
          await jobs.prune(retentionMs);
        },
      },
      { lane: 'light', timeoutMs: 5 * 60_000 },
    );
    await jobs.schedule(PRUNE_JOBS, Math.min(HOUR, retentionMs), { firstInMs: 60_000 });

    const tmpDir = path.join(ctx.config.dataDir, 'tmp');
    // What a kill -9 left in DATA_DIR/tmp goes at start (directories of pending jobs stay: they resume).
    await sweepTemp(ctx.db.kysely, tmpDir, STARTED).catch((err) =>
      api.log.warn({ err }, 'temp sweep failed'),
    );
    jobs.register(
      SWEEP_MEDIA,
      {
        async run() {
          const swept = await sweepMedia(ctx.db.kysely, ctx.storage, tmpDir);
          api.log.info(swept, 'media sweep');
        },
      },
      { lane: 'light', timeoutMs: 30 * 60_000 },
    );
    await jobs.schedule(SWEEP_MEDIA, HOUR, { firstInMs: 5 * 60_000 });
    return { services: {} };
  },
});
