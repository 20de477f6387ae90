import path from 'node:path';
import type { Post } from '@kadr/contract';
import type { App, AppContext } from '../../app-types.ts';
import type { Config } from '../../config.ts';
import { jobQueue } from '../../jobs/queue.ts';
import { actionRoutes } from './action-routes.ts';
import { feedCache } from './cache/feed-cache.ts';
import { commentAndPreferenceRoutes } from './comment-routes.ts';
import { commentsService } from './comments.ts';
import { postReader } from './post-reader.ts';
import { preferencesService } from './preferences.ts';
import { findFfmpeg } from './processing/ffmpeg.ts';
import { POST_JOB, postJobHandler } from './processing/post-job.ts';
import { readRepository } from './read-repository.ts';
import { mediaRepository } from './repository.ts';
import { mediaRoutes } from './routes.ts';
import { mediaService } from './service.ts';
import { humanLabeler } from './tagger/human-labeler.ts';
import { createTagger } from './tagger/local-tagger.ts';
import { remoteLabeler } from './tagger/remote-labeler.ts';
import type { Tagger } from './tagger/tagger.ts';
import { uploadService } from './upload/upload-service.ts';

/** The local, offline tagger unless AI_TAGGER_URL names an OpenAI-compatible vision endpoint. */
export function taggerFromConfig(config: Config): Tagger {
  const remote = config.aiTagger;
  return createTagger(
    remote.url
      ? remoteLabeler({ url: remote.url, model: remote.model, apiKey: remote.apiKey })
      : humanLabeler(),
  );
}

type Deps = Pick<AppContext, 'config' | 'db' | 'bus' | 'storage' | 'gateway' | 'profiles' | 'limits'> & {
  log?: { error(obj: object, msg: string): void };
};

/** Builds the media feed once from config: services, the read cache, the job queue with its worker, and the routes. */
export async function createMediaModule(deps: Deps) {
  const { config, storage, gateway, profiles } = deps;
  const db = deps.db.kysely;
  const ffmpeg = findFfmpeg();
  const tagger = taggerFromConfig(config);
  const repo = mediaRepository(db);
  const jobs = jobQueue(db, { ...config.jobs, log: deps.log });
  const read = readRepository(db);
  const cache = await feedCache(deps.bus, config.feedCacheTtlMs, profiles);
  const service = mediaService({
    repo,
    read,
    reader: postReader(read, cache),
    cache,
    storage,
    limits: deps.limits,
    invalidateProfiles: (ids) => profiles.invalidate(ids),
  });

  const module = {
    service,
    repo,
    jobs,
    tagger,
    ffmpeg,
    cache,
    comments: commentsService(db, cache.changed, deps.limits),
    preferences: preferencesService(db, cache.changed),
    uploads: uploadService({
      repo,
      jobs,
      ffmpeg,
      tmpDir: path.join(config.dataDir, 'tmp'),
      limits: config.media,
      rateLimits: deps.limits,
    }),
    notifyProcessing(userId: number, post: Post) {
      gateway.emitToUser(userId, 'media-processing', { post_id: post.id, status: post.status });
    },
    routes: [] as ((app: App) => Promise<void>)[],
    async close() {
      await jobs.stop();
      await tagger.close();
    },
  };

  jobs.register(
    POST_JOB,
    postJobHandler({
      db,
      storage,
      ffmpeg,
      tagger,
      async onFinished(postId, userId, status) {
        await cache.changed({ posts: [postId], feed: status === 'done' });
        if (status === 'done') await profiles.invalidate([userId]);
        const post =
          status === 'done' ? await service.post(postId, userId).catch(() => undefined) : undefined;
        gateway.emitToUser(userId, 'media-processing', {
          post_id: postId,
          status,
          ...(post ? { post } : {}),
        });
      },
    }),
  );
  module.routes = [mediaRoutes(module), actionRoutes(module), commentAndPreferenceRoutes(module)];
  if (config.jobs.worker) jobs.start();
  return module;
}

export type MediaModule = Awaited<ReturnType<typeof createMediaModule>>;
