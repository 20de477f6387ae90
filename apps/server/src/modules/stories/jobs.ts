import fs from 'node:fs/promises';
import path from 'node:path';
import type { StoryText } from '@kadr/contract';
import type { JobHandler } from '../../jobs/queue.ts';
import type { Storage } from '../../storage/storage.ts';
import type { FfmpegBinaries } from '../media/processing/ffmpeg.ts';
import { STORY_ASPECT, storyImage } from '../media/processing/image.ts';
import { rejected } from '../media/processing/post-job.ts';
import { storeBuffer, storeFile } from '../media/processing/store.ts';
import { processVideo } from '../media/processing/video.ts';
import { imageSignals, videoSignals } from '../media/tagger/signals.ts';
import type { Tagger } from '../media/tagger/tagger.ts';
import type { StoriesRepository } from './repository.ts';
import { drawTextFilters } from './texts.ts';

export const PROCESS_JOB = 'stories.process';
/** Periodic: removes expired stories with their files, then schedules its next run. */
export const EXPIRE_JOB = 'stories.expire';

export interface ProcessPayload {
  storyId: number;
  /** The upload's directory under DATA_DIR/tmp; removed when done or given up. */
  dir: string;
  file: string;
  kind: 'video' | 'image';
  /** Video: the chosen segment, seconds (already clamped). */
  start: number;
  duration: number;
  /** Video: the author's texts, burned in (absent in jobs queued before texts existed). */
  texts?: StoryText[];
}

export interface ProcessDeps {
  repo: StoriesRepository;
  storage: Storage;
  ffmpeg: FfmpegBinaries;
  tagger: Tagger;
  onFinished(storyId: number, userId: number, status: 'ready' | 'failed'): Promise<void>;
}

/** Makes the story's output with the post pipeline's pieces, tags it, marks it ready. Safe to run again. */
export function processHandler(deps: ProcessDeps): JobHandler<ProcessPayload> {
  const { repo, storage } = deps;
  return {
    async run({ payload, signal }) {
      const story = await repo.byId(payload.storyId);
      if (story?.status !== 'processing') {
        await fs.rm(payload.dir, { recursive: true, force: true });
        return;
      }
      const keys: string[] = [];
      let fields: {
        file_url: string;
        thumbnail_url: string;
        /** A photo's screen variant (what a phone's viewer shows); null for a video and a small photo. */
        screen_url: string | null;
        duration: number;
        ai_tags: string[];
        ai_description?: string;
      };
      let analysed: Awaited<ReturnType<typeof imageSignals>>;
      if (payload.kind === 'video') {
        const work = path.join(payload.dir, 'work');
        await fs.mkdir(work, { recursive: true });
        const out = await processVideo(deps.ffmpeg, payload.file, work, {
          segment: { start: payload.start, duration: payload.duration },
          aspect: STORY_ASPECT,
          draw: (width) => drawTextFilters(payload.texts ?? [], width, work),
          signal,
        }).catch(rejected);
        const fileKey = await storeFile(storage, 'stories', out.file, 'mp4');
        const posterKey = await storeBuffer(storage, 'stories', out.poster, 'webp');
        keys.push(fileKey, posterKey);
        fields = {
          file_url: storage.publicUrl(fileKey),
          thumbnail_url: storage.publicUrl(posterKey),
          screen_url: null,
          duration: out.duration,
          ai_tags: [],
        };
        analysed = await videoSignals(deps.ffmpeg, out.file, out.duration, {
          hasAudio: out.hasAudio,
          signal,
        });
      } else {
        const img = await storyImage(payload.file).catch(rejected);
        const fileKey = await storeBuffer(storage, 'stories', img.image, 'webp');
        const thumbKey = await storeBuffer(storage, 'stories', img.thumbnail, 'webp');
        const screenKey = img.screen ? await storeBuffer(storage, 'stories', img.screen, 'webp') : null;
        keys.push(fileKey, thumbKey, ...(screenKey ? [screenKey] : []));
        fields = {
          file_url: storage.publicUrl(fileKey),
          thumbnail_url: storage.publicUrl(thumbKey),
          screen_url: screenKey ? storage.publicUrl(screenKey) : null,
          duration: payload.duration,
          ai_tags: [],
        };
        analysed = await imageSignals([img.image]);
      }
      const tagged = await deps.tagger.tag({ ...analysed, caption: story.caption });
      const tags: string[] = tagged.tags.filter((t) => t !== 'for_sleep');
      if (tagged.forSleep) tags.unshift('for_sleep');
      fields.ai_tags = tags;
      fields.ai_description = tagged.description;
      const finished = await repo.finish(story.id, fields);
      if (!finished) {
        // Deleted meanwhile: drop what this run stored unless another story uses the same bytes.
        for (const key of keys)
          if (!(await repo.isUrlInUse(storage.publicUrl(key)))) await storage.delete(key);
      }
      await fs.rm(payload.dir, { recursive: true, force: true });
      if (finished) await deps.onFinished(story.id, story.user_id, 'ready');
    },

    async onGiveUp({ payload }) {
      const userId = await repo.fail(payload.storyId);
      await fs.rm(payload.dir, { recursive: true, force: true });
      if (userId !== null) await deps.onFinished(payload.storyId, userId, 'failed');
    },
  };
}
