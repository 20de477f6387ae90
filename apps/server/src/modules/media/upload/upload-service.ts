import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { JobQueue } from '../../../jobs/queue.ts';
import type { RateLimits } from '../../../lib/limits.ts';
import type { FfmpegBinaries } from '../processing/ffmpeg.ts';
import { PHOTO_POST_JOB, POST_JOB, type PostJobPayload } from '../processing/post-job.ts';
import type { MediaRepository } from '../repository.ts';
import type { UploadsInFlight } from './in-flight.ts';
import { receiveUpload, type UploadLimits } from './receive.ts';
import { checkUpload } from './validate.ts';

export interface UploadDeps {
  repo: MediaRepository;
  jobs: JobQueue;
  ffmpeg: FfmpegBinaries;
  tmpDir: string;
  limits: UploadLimits;
  inFlight?: UploadsInFlight;
  rateLimits: RateLimits;
  /**
   * The post and its job are committed: told before the worker is woken, so the uploader hears «queued»
   * before any stage the job reports (a worker polling fast enough overtook the route's own notice).
   */
  onQueued?: (postId: number, userId: number) => void;
  /** An upload was let in: the tagger starts loading its model while the file arrives. */
  onUploadStart?: () => void;
}

/**
 * POST /media/upload: stream to a private temp directory, check by content, then create the post (status
 * processing) and its job in one transaction. A refused request leaves no file and no row.
 */
export function uploadService(deps: UploadDeps) {
  return {
    async upload(req: FastifyRequest, userId: number): Promise<number> {
      await deps.rateLimits.consume('upload.post', { user: userId });
      deps.onUploadStart?.();
      return deps.inFlight
        ? deps.inFlight.run(userId, () => this.receive(req, userId))
        : this.receive(req, userId);
    },

    async receive(req: FastifyRequest, userId: number): Promise<number> {
      const received = await receiveUpload(req, deps.tmpDir, deps.limits);
      try {
        const checked = await checkUpload(deps.ffmpeg, received, deps.limits);
        const postId = await deps.repo.db.transaction().execute(async (trx) => {
          const id = await deps.repo.insertPost(
            trx,
            { userId, caption: checked.caption, mediaType: checked.mediaType },
            checked.files.map((f) => f.kind),
          );
          const payload: PostJobPayload = {
            postId: id,
            dir: received.dir,
            files: checked.files,
            cover: checked.cover,
          };
          const kind = checked.mediaType === 'video' ? POST_JOB : PHOTO_POST_JOB;
          await deps.jobs.enqueue(kind, payload, trx);
          return id;
        });
        deps.onQueued?.(postId, userId);
        deps.jobs.notify();
        return postId;
      } catch (error) {
        await fs.rm(received.dir, { recursive: true, force: true });
        throw error;
      }
    },
  };
}

export type UploadService = ReturnType<typeof uploadService>;
