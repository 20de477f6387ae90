import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorText, type ProcessingStage } from '@kadr/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { isPermanent, type JobHandler, PermanentJobError } from '../../../jobs/queue.ts';
import type { Storage } from '../../../storage/storage.ts';
import { imageSignals, videoSignals } from '../tagger/signals.ts';
import type { Tagger } from '../tagger/tagger.ts';
import type { FfmpegBinaries } from './ffmpeg.ts';
import { processPostImage } from './image.ts';
import { storeBuffer, storeFile } from './store.ts';
import { processVideo } from './video.ts';

/** Video posts (the heavy lane); older queued rows of either media kind run here too. */
export const POST_JOB = 'media.process-post';
/** Photo and carousel posts (the light lane), so they never wait behind a video. */
export const PHOTO_POST_JOB = 'media.process-photo-post';

export interface PostJobPayload {
  postId: number;
  /** The upload's directory under DATA_DIR/tmp; removed once the post is done or has failed for good. */
  dir: string;
  files: { path: string; kind: 'video' | 'image' }[];
  cover: string | null;
}

interface FileResult {
  file_url: string;
  thumbnail_url: string;
  /** A photo's screen variant (what the feed shows); null for a video. */
  screen_url: string | null;
  width: number;
  height: number;
  duration: number | null;
}

export interface PostJobDeps {
  db: Kysely<Database>;
  storage: Storage;
  ffmpeg: FfmpegBinaries;
  tagger: Tagger;
  /** How far the post is: its stage and overall progress 0–100 (sent to the uploader as it changes). */
  onProgress?(postId: number, userId: number, stage: ProcessingStage, progress: number): void;
  /** Post is done or failed: tell the uploader, refresh the profile. */
  onFinished(postId: number, userId: number, status: 'done' | 'failed', reason?: string): Promise<void>;
  threads?: number;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * The decoder refusing the input is not fixed by a retry; a crash of ours or a full disk might be, and is
 * retried. `ffmpeg exited` / sharp's input errors are the decoder's verdict on the bytes. Every media job
 * (posts, stories) passes its decoding through this.
 */
export function rejected(error: unknown): never {
  if (isPermanent(error)) throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (
    /exited with|not a video|Input buffer|Input file|unsupported image format|VipsJpeg|corrupt|bad seek/i.test(
      message,
    )
  )
    throw new PermanentJobError(message, ErrorText.mediaUnreadable);
  throw error;
}

/** Where each stage starts and ends in the overall 0–100, per kind of post (converting a video is the long part). */
const STAGE_SPAN: Record<'video' | 'image', Record<Exclude<ProcessingStage, 'queued'>, [number, number]>> = {
  video: { converting: [2, 55], analysing: [55, 65], tagging: [65, 95], saving: [96, 100] },
  image: { converting: [2, 35], analysing: [35, 45], tagging: [45, 95], saving: [96, 100] },
};

/** Reports a stage's progress as overall percentages, each whole percent once, never going back. */
function progressReporter(
  kind: 'video' | 'image',
  send: ((stage: ProcessingStage, progress: number) => void) | undefined,
) {
  let last = -1;
  return (stage: Exclude<ProcessingStage, 'queued'>, fraction: number) => {
    if (!send) return;
    const [from, to] = STAGE_SPAN[kind][stage];
    const percent = Math.floor(from + (to - from) * Math.min(1, Math.max(0, fraction)));
    if (percent <= last) return;
    last = percent;
    send(stage, percent);
  };
}

/**
 * Turns an accepted upload into a finished post: transcodes/resizes, stores content-addressed files, tags,
 * then marks the post done in one transaction. Safe to run again: a post already done (or deleted) is left
 * alone and the same bytes land on the same keys.
 */
export function postJobHandler(deps: PostJobDeps): JobHandler<PostJobPayload> {
  const { db, storage } = deps;
  return {
    async run({ payload, signal }) {
      const post = await db
        .selectFrom('posts')
        .select(['id', 'user_id', 'status', 'caption', 'for_sleep_override'])
        .where('id', '=', payload.postId)
        .executeTakeFirst();
      if (!post || post.status === 'done') {
        await fs.rm(payload.dir, { recursive: true, force: true });
        return;
      }
      const work = path.join(payload.dir, 'work');
      await fs.mkdir(work, { recursive: true });
      const keys: string[] = [];
      const results: FileResult[] = [];
      let analysed: Awaited<ReturnType<typeof imageSignals>>;
      const video = payload.files[0]?.kind === 'video' ? payload.files[0] : null;
      const report = progressReporter(
        video ? 'video' : 'image',
        deps.onProgress && ((stage, progress) => deps.onProgress?.(post.id, post.user_id, stage, progress)),
      );
      report('converting', 0);
      if (video) {
        const out = await processVideo(deps.ffmpeg, video.path, work, {
          cover: payload.cover,
          threads: deps.threads,
          signal,
          onProgress: (fraction) => report('converting', fraction),
        }).catch(rejected);
        const fileKey = await storeFile(storage, 'media', out.file, 'mp4');
        const posterKey = await storeBuffer(storage, 'media', out.poster, 'webp');
        keys.push(fileKey, posterKey);
        results.push({
          file_url: storage.publicUrl(fileKey),
          thumbnail_url: storage.publicUrl(posterKey),
          screen_url: null,
          width: out.width,
          height: out.height,
          duration: out.duration,
        });
        report('analysing', 0);
        analysed = await videoSignals(deps.ffmpeg, out.file, out.duration, {
          hasAudio: out.hasAudio,
          signal,
          log: (obj, msg) => deps.log?.warn({ ...obj, postId: post.id }, msg),
        });
      } else {
        const feeds: Buffer[] = [];
        for (const [index, file] of payload.files.entries()) {
          const img = await processPostImage(file.path).catch(rejected);
          const feedKey = await storeBuffer(storage, 'media', img.feed, 'webp');
          const thumbKey = await storeBuffer(storage, 'media', img.thumbnail, 'webp');
          const screenKey = await storeBuffer(storage, 'media', img.screen, 'webp');
          keys.push(feedKey, thumbKey, screenKey);
          feeds.push(img.feed);
          results.push({
            file_url: storage.publicUrl(feedKey),
            thumbnail_url: storage.publicUrl(thumbKey),
            screen_url: storage.publicUrl(screenKey),
            width: img.width,
            height: img.height,
            duration: null,
          });
          report('converting', (index + 1) / payload.files.length);
        }
        report('analysing', 0);
        analysed = await imageSignals(feeds);
      }
      report('tagging', 0);
      const tagged = await deps.tagger.tag({ ...analysed, caption: post.caption }, (fraction) =>
        report('tagging', fraction),
      );
      report('saving', 0);
      const forSleep = post.for_sleep_override ?? tagged.forSleep;
      const tags: string[] = tagged.tags.filter((t) => t !== 'for_sleep');
      if (forSleep) tags.unshift('for_sleep');

      const finished = await db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('posts')
          .select('status')
          .where('id', '=', post.id)
          .forUpdate()
          .executeTakeFirst();
        if (!current || current.status === 'done') return false;
        for (const [position, r] of results.entries()) {
          await trx
            .updateTable('post_files')
            .set(r)
            .where('post_id', '=', post.id)
            .where('position', '=', position)
            .execute();
        }
        await trx
          .updateTable('posts')
          .set({
            status: 'done',
            ai_tags: tags,
            ai_for_sleep: tagged.forSleep,
            ai_calm_score: tagged.calmScore,
            ai_description: tagged.description,
            ai_objects: tagged.objects.map((o) => o.name),
            ai_provider: tagged.provider,
            ai_model: tagged.model,
          })
          .where('id', '=', post.id)
          .execute();
        await trx
          .updateTable('users')
          .set((eb) => ({ posts_count: eb('posts_count', '+', 1) }))
          .where('id', '=', post.user_id)
          .execute();
        return true;
      });
      if (!finished) {
        // Deleted meanwhile: drop what this run stored unless something else uses it.
        for (const key of keys) {
          const url = storage.publicUrl(key);
          const used = await db
            .selectFrom('post_files')
            .select('id')
            .where((eb) =>
              eb.or([eb('file_url', '=', url), eb('thumbnail_url', '=', url), eb('screen_url', '=', url)]),
            )
            .executeTakeFirst();
          if (!used) await storage.delete(key);
        }
      }
      await fs.rm(payload.dir, { recursive: true, force: true });
      if (finished) await deps.onFinished(post.id, post.user_id, 'done');
    },

    async onGiveUp({ payload }, error) {
      const reason = isPermanent(error) && error.reason ? error.reason : ErrorText.uploadFailed;
      const row = await db
        .updateTable('posts')
        .set({ status: 'failed', failure_reason: reason })
        .where('id', '=', payload.postId)
        .where('status', '!=', 'done')
        .returning('user_id')
        .executeTakeFirst();
      await fs.rm(payload.dir, { recursive: true, force: true });
      if (row) await deps.onFinished(payload.postId, row.user_id, 'failed', reason);
    },
  };
}
