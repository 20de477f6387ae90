import { ErrorText } from '@kadr/contract';
import { demoRoutes } from '@kadr/contract/demo/routes';
import { errors } from '../../lib/errors.ts';
import { registerRoutes } from '../../lib/route.ts';
import { defineModule } from '../module.ts';
import { demoMigrations } from './migrations.ts';
import { demoRepository } from './repository.ts';
import { seedDemo } from './seeder.ts';
import { demoService, operatorKey, SEED_JOB, type SeedJobPayload } from './service.ts';

declare module '../../app-types.ts' {
  interface ModuleServices {
    /** «Добавить демо-контент»: who is offered it, and the seeding job. */
    demo: ReturnType<typeof demoService>;
  }
}

/** The operator's header for `npm run seed:demo` against a running server (its value is DATA_DIR/operator.key). */
export const OPERATOR_HEADER = 'x-kadr-operator-key';

/**
 * Demo content on a first run: the offer (GET /demo), the start (POST /demo) and the durable job that seeds
 * people, posts, stories and chats through the app's own API (seeder.ts). Last in the module list: it uses
 * every capability's routes.
 */
export const demoModule = defineModule({
  name: 'demo',
  migrations: demoMigrations,
  async register(api, ctx) {
    const repo = demoRepository(ctx.db.kysely);
    const service = demoService({
      repo,
      jobs: ctx.media.jobs,
      enabled: ctx.config.demoContent,
      operatorKey: ctx.config.demoContent ? operatorKey(ctx.config.dataDir) : null,
    });
    ctx.media.jobs.register<SeedJobPayload>(
      SEED_JOB,
      {
        async run({ payload }) {
          await repo.progress(payload.seedingId, { status: 'running', done: 0 });
          let done = 0;
          const started = Date.now();
          await seedDemo(api, ctx, repo, {
            askerId: payload.askerId,
            progress: {
              total: 0,
              step: async () => {
                done += 1;
                await repo.progress(payload.seedingId, { done });
              },
            },
          });
          await repo.finish(payload.seedingId, 'done', null);
          api.log.info({ seconds: Math.round((Date.now() - started) / 100) / 10 }, 'demo content seeded');
        },
        async onGiveUp({ payload }, error) {
          api.log.error({ err: error }, 'demo seeding failed');
          await repo.finish(payload.seedingId, 'failed', ErrorText.demoFailed);
        },
      },
      // The heavy lane (video's): a run takes seconds, and in the light lane it queued behind its own chat
      // photos of a previous run, which a starved image process (SCHED_IDLE on a loaded machine) held for minutes.
      { lane: 'heavy', timeoutMs: 10 * 60_000 },
    );

    const operator = (headers: Record<string, string | string[] | undefined>) => {
      const key = headers[OPERATOR_HEADER];
      return service.isOperator(typeof key === 'string' ? key : undefined);
    };
    registerRoutes(
      api,
      demoRoutes,
      {
        state: (req) => {
          if (operator(req.raw.headers)) return service.state(null);
          if (req.userId === null) throw errors.unauthorized();
          return service.state(req.userId);
        },
        seed: async (req, reply) => {
          const isOperator = operator(req.raw.headers);
          if (!isOperator && req.userId === null) throw errors.unauthorized();
          reply.code(202);
          return service.seed(isOperator ? null : req.userId);
        },
      },
      { tag: 'demo' },
    );
    return { services: service };
  },
});
