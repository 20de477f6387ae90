import { StoryLimits } from '@kadr/contract';
import { storiesRoutes } from '@kadr/contract/stories/routes';
import { registerRoutes } from '../../lib/route.ts';
import { serializedJson, storedJson } from '../../lib/stored-json.ts';
import { defineModule } from '../module.ts';
import { type StoriesCache, storiesCache } from './cache.ts';
import { EXPIRE_JOB, PROCESS_JOB, processHandler } from './jobs.ts';
import { storiesMigrations } from './migrations.ts';
import { storiesRepository } from './repository.ts';
import { type Clock, storiesService } from './service.ts';

/** How often the periodic expiry job runs (stories are hidden by the query at once; this frees the files). */
export const EXPIRE_EVERY_MS = 5 * 60_000;

/**
 * Stories (spec §2.5, §3, §4.10, §7.2): upload through the post pipeline, the 24-hour feed, views,
 * likes, viewers, replies into the messenger, hiding reported stories from their reporters, and the home page's grid of followed posts.
 * `services.clock` is the module's one clock (tests move it past 24 h).
 */
export const storiesModule = defineModule({
  name: 'stories',
  migrations: storiesMigrations,
  async register(api, ctx) {
    const clock: Clock = { now: () => new Date() };
    const repo = storiesRepository(ctx.db.kysely);
    const cache = await storiesCache(ctx.bus, ctx.config.feedCacheTtlMs, {
      now: () => clock.now().getTime(),
      sources: { profiles: ctx.profiles, media: ctx.media.cache, privacy: ctx.settings },
    });
    const service = storiesService({ ctx, repo, cache, clock, expireEveryMs: EXPIRE_EVERY_MS });
    const log = api.log;
    const stored = storedJson();

    ctx.media.jobs.register(
      PROCESS_JOB,
      processHandler({
        repo,
        storage: ctx.storage,
        ffmpeg: ctx.media.ffmpeg,
        tagger: ctx.media.tagger,
        onFinished: (id, userId, status) => service.finished(id, userId, status),
      }),
    );
    ctx.media.jobs.register(EXPIRE_JOB, {
      async run() {
        try {
          const n = await service.expire();
          if (n > 0) log.info({ removed: n }, 'expired stories removed');
        } catch (err) {
          // Never fail the run: the next one is queued below either way and retries the same work.
          log.error({ err }, 'story expiry failed');
        }
        // The chain runs while stories exist; the next upload starts it again.
        if (await repo.any()) await service.scheduleExpiry();
      },
    });
    // A new followee (an accepted request included) brings their stories: the follower's strip asks again.
    const stopFollowed = ctx.events.on('user.followed', (e) =>
      ctx.gateway.emitToUser(e.followerId, 'stories-changed', { user_id: e.followeeId }),
    );
    ctx.messenger.messages.tools.setStoryPreviews((ids) => service.previews(ids));

    registerRoutes(
      api,
      storiesRoutes,
      {
        upload: async (req) => ({ story: await service.upload(req.raw, req.userId) }),
        feed: async (req, reply) => {
          reply.header('cache-control', 'no-cache');
          const limit = req.query.limit ?? StoryLimits.feedGroups;
          if (limit !== StoryLimits.feedGroups)
            return { stories_groups: await service.feed(req.userId, limit) };
          // The strip's page, as the schema's serializer wrote it when it was built (one lookup on a hit).
          const body = await service.firstPage(req.userId, (groups) =>
            serializedJson(reply, { stories_groups: groups }),
          );
          return stored(req.raw, reply, body);
        },
        get: (req) => service.get(req.params.id, req.userId),
        view: (req) => service.view(req.params.id, req.userId),
        viewers: (req) => service.viewers(req.params.id, req.userId),
        like: (req) => service.like(req.params.id, req.userId, true),
        unlike: (req) => service.like(req.params.id, req.userId, false),
        remove: (req) => service.remove(req.params.id, req.userId),
        reply: (req) => service.reply(req.params.id, req.userId, req.body.content, req.body.temp_id),
        homeFeed: (req) => service.homeFeed(req.userId, req.query.offset ?? 0, req.query.limit ?? 30),
      },
      { tag: 'stories' },
    );

    return { services: { service, clock, repo, cache }, close: async () => stopFollowed() };
  },
});

export type StoriesServices = {
  service: ReturnType<typeof storiesService>;
  clock: Clock;
  cache: StoriesCache;
};
