import path from 'node:path';
import { ErrorText } from '@kadr/contract';
import type { AppContext } from '../../app-types.ts';
import type { Config } from '../../config.ts';
import { jobQueue } from '../../jobs/queue.ts';
import { feedCache } from './cache/feed-cache.ts';
import { commentsService } from './comments.ts';
import { postReader } from './post-reader.ts';
import { preferencesService } from './preferences.ts';
import { findFfmpeg } from './processing/ffmpeg.ts';
import { configureSharp } from './processing/image.ts';
import { PHOTO_POST_JOB, POST_JOB, postJobHandler } from './processing/post-job.ts';
import { readRepository } from './read-repository.ts';
import { mediaRepository } from './repository.ts';
import { mediaService } from './service.ts';
import { humanLabeler } from './tagger/human-labeler.ts';
import { createTagger } from './tagger/local-tagger.ts';
import { remoteLabeler } from './tagger/remote-labeler.ts';
import type { Tagger } from './tagger/tagger.ts';
import { uploadsInFlight } from './upload/in-flight.ts';
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

type Deps = Pick<
  AppContext,
  'config' | 'db' | 'bus' | 'storage' | 'gateway' | 'profiles' | 'limits' | 'events'
> &
  Partial<Pick<AppContext, 'settings'>> & {
    log?: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  };

/** Builds the media feed once from config: services, the read cache, the job queue with its worker. */
export async function createMediaServices(deps: Deps) {
  const { config, storage, gateway, profiles } = deps;
  const db = deps.db.kysely;
  configureSharp();
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
    reach: deps.settings?.reach,
  });

  const inFlight = uploadsInFlight(config.jobs.uploadsInFlightPerUser);
  const module = {
    inFlight,
    service,
    repo,
    jobs,
    tagger,
    ffmpeg,
    cache,
    comments: commentsService(db, cache.changed, deps.limits, deps.settings?.reach),
    preferences: preferencesService(db, cache.changed),
    uploads: uploadService({
      repo,
      jobs,
      ffmpeg,
      tmpDir: path.join(config.dataDir, 'tmp'),
      limits: config.media,
      inFlight,
      rateLimits: deps.limits,
      // The first upload must not wait for the detector's model, nor may an idle server hold it (~150–300 MB
      // in its own process, which exits after 10 idle minutes): it loads while the upload's file arrives.
      onUploadStart:
        config.jobs.worker && config.aiTagger.warm
          ? () =>
              tagger
                .warm()
                .catch((err) => deps.log?.warn({ err }, 'tagger warm-up failed; the post loads it'))
          : undefined,
      onQueued: (postId, userId) =>
        gateway.emitToUser(userId, 'media-processing', {
          post_id: postId,
          status: 'processing',
          stage: 'queued',
          progress: 0,
        }),
    }),
    /**
     * Publishes a post whose files are stored and processed already (the demo seeder's prepared variants): the
     * same rows, caches and `post.published` event as a finished post job, without the job.
     */
    async publishReady(post: Parameters<typeof repo.insertReadyPost>[0]) {
      const postId = await repo.insertReadyPost(post);
      await cache.changed({ posts: [postId], feed: true });
      await profiles.invalidate([post.userId]);
      deps.events.emit('post.published', { postId, userId: post.userId, caption: post.caption });
      return postId;
    },
    async close() {
      await jobs.stop();
      await tagger.close();
    },
  };

  const postJob = postJobHandler({
    db,
    storage,
    ffmpeg,
    tagger,
    log: deps.log,
    onProgress(postId, userId, stage, progress) {
      gateway.emitToUser(userId, 'media-processing', {
        post_id: postId,
        status: 'processing',
        stage,
        progress,
      });
    },
    async onFinished(postId, userId, status, reason) {
      await cache.changed({ posts: [postId], feed: status === 'done' });
      if (status === 'done') await profiles.invalidate([userId]);
      const post = status === 'done' ? await service.post(postId, userId).catch(() => undefined) : undefined;
      if (post) deps.events.emit('post.published', { postId, userId, caption: post.caption });
      gateway.emitToUser(userId, 'media-processing', {
        post_id: postId,
        status,
        ...(post ? { post } : {}),
        ...(reason ? { reason } : {}),
      });
    },
  });
  const capped = { timeoutReason: ErrorText.mediaTooLong };
  jobs.register(POST_JOB, postJob, { ...capped, lane: 'heavy' });
  jobs.register(PHOTO_POST_JOB, postJob, { ...capped, lane: 'light' });
  if (config.jobs.worker) jobs.start();
  return module;
}

/** Media feed: posts, uploads, the job queue and the tagger (reusable processing in ./processing). */
export type MediaServices = Awaited<ReturnType<typeof createMediaServices>>;
/** The old name of MediaServices. */
export type MediaModule = MediaServices;
