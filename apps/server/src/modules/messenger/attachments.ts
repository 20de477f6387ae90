import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, ErrorText, Limits, type MessageAttachment, normalizeText } from '@kadr/contract';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../../db/schema.ts';
import { isPermanent, type JobHandler, type JobQueue, PermanentJobError } from '../../jobs/queue.ts';
import { AppError, errors } from '../../lib/errors.ts';
import { SHARP_INPUT } from '../../lib/images.ts';
import type { RateLimits } from '../../lib/limits.ts';
import type { Storage } from '../../storage/storage.ts';
import { type FfmpegBinaries, findFfmpeg } from '../media/processing/ffmpeg.ts';
import { processImage } from '../media/processing/image.ts';
import { storeBuffer, storeFile } from '../media/processing/store.ts';
import { processVideo } from '../media/processing/video.ts';
import type { AttachmentStatus } from '../media/tables.ts';
import type { UploadsInFlight } from '../media/upload/in-flight.ts';
import { multipartError } from '../media/upload/multipart.ts';
import { sniffFile } from '../media/upload/sniff.ts';
import { type AttachmentKind, attachmentKind, isVoiceContainer } from './attachment-kind.ts';
import { toAttachment } from './mappers.ts';
import type { FileRow, MessengerRepository } from './repository.ts';
import { isAudioOnly, processVoice } from './voice.ts';

const tooLarge = () => new AppError(413, ErrorCode.payloadTooLarge, ErrorText.uploadTooLarge);
const wrongType = () => errors.unsupportedMedia(ErrorText.attachmentWrongType);

interface Received {
  path: string;
  name: string | null;
  kind: AttachmentKind;
  size: number;
}

/** A file name safe to show: the last path segment, no control characters, at most 255 characters. */
export function cleanFileName(raw: string | undefined): string | null {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return code >= 0x20 && code !== 0x7f;
    })
    .join('')
    .trim()
    .slice(0, 255);
  // A file name is a name others read: no direction overrides ("photo\u202Egpj.exe"), no invisibles.
  const shown = normalizeText(clean, 'name');
  return !shown.ok || shown.value === '' ? null : shown.value;
}

async function head(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Photos and GIFs run in the light lane, videos in the heavy one (see jobs/queue.ts). */
export const ATTACHMENT_JOB = 'messenger.process-attachment';
export const VIDEO_ATTACHMENT_JOB = 'messenger.process-video-attachment';

export interface AttachmentJobPayload {
  fileId: number;
  /** The upload's own directory under DATA_DIR/tmp, removed when the job is done or has failed for good. */
  dir: string;
  path: string;
  kind: 'image' | 'gif' | 'video' | 'voice';
}

/**
 * Chat attachments work like post uploads: the body streams to a directory under DATA_DIR/tmp, each file is
 * checked by content, documents are streamed to storage at once, and media get a row in status 'processing'
 * and a durable job that processes them with the post functions (webp variants, H.264 MP4 + poster) and streams
 * the result to storage. Nothing is read whole into memory. Anything rejected leaves nothing behind.
 */
export function attachmentsService(deps: {
  repo: MessengerRepository;
  db: Kysely<Database>;
  storage: Storage;
  maxBytes: number;
  limits: RateLimits;
  tmpRoot?: string;
  ffmpeg?: () => FfmpegBinaries;
  jobs?: JobQueue;
  /** A processed file's message changed: tell the chat. */
  onProcessed?: (messageId: number) => Promise<void>;
  /** Removes stored files nothing references (storage/references.ts). */
  releaseStored?: (urls: string[]) => Promise<unknown>;
  inFlight?: UploadsInFlight;
}) {
  const { storage } = deps;
  let bins: FfmpegBinaries | null = null;
  const ffmpeg = () => {
    bins ??= (deps.ffmpeg ?? findFfmpeg)();
    return bins;
  };

  async function receive(req: FastifyRequest, dir: string): Promise<Received[]> {
    if (!req.isMultipart()) throw wrongType();
    const out: Received[] = [];
    let voice = false;
    try {
      const parts = req.parts({
        limits: { fileSize: deps.maxBytes, files: Limits.messageFilesMax, fields: 4, fieldSize: 1024 },
      });
      for await (const part of parts) {
        if (part.type === 'field') {
          // `voice=1` before the file: the next files are voice recordings (audio only).
          if (part.fieldname === 'voice' && part.value === '1') voice = true;
          continue;
        }
        const fileDir = path.join(dir, String(out.length));
        await fs.mkdir(fileDir);
        const file = path.join(fileDir, 'upload');
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) throw tooLarge();
        const bytes = await head(file);
        const kind: AttachmentKind | null = voice
          ? isVoiceContainer(bytes)
            ? { kind: 'voice' }
            : null
          : attachmentKind(bytes);
        if (!kind) throw wrongType();
        const { size } = await fs.stat(file);
        out.push({ path: file, name: cleanFileName(part.filename), kind, size });
      }
    } catch (error) {
      throw multipartError(error, () => errors.validation({ files: ErrorText.validationFailed }));
    }
    if (out.length === 0)
      throw errors.validation({ files: ErrorText.uploadNoFiles }, ErrorText.uploadNoFiles);
    return out;
  }

  /** Media kinds must decode; `sniffFile` is the check posts use (sharp for images, ffprobe for video). */
  async function confirm(file: Received) {
    if (file.kind.kind === 'document') return;
    if (file.kind.kind === 'voice') {
      if (!(await isAudioOnly(ffmpeg(), file.path))) throw wrongType();
      return;
    }
    const sniffed = await sniffFile(ffmpeg(), file.path);
    const expected = file.kind.kind === 'video' ? 'video' : 'image';
    if (sniffed !== expected) throw wrongType();
  }

  const url = (key: string | null) => (key ? storage.publicUrl(key) : null);

  /** The stored variants of one media file; the same bytes always land on the same keys, so re-runs are harmless. */
  async function processMedia(
    payload: AttachmentJobPayload,
    signal?: AbortSignal,
  ): Promise<{
    file_type: 'photo' | 'gif' | 'video' | 'voice';
    file_url: string;
    thumbnail_url: string | null;
    width: number | null;
    height: number | null;
    duration: number | null;
    file_size: number;
    waveform?: string;
  }> {
    if (payload.kind === 'image') {
      const img = await processImage(payload.path);
      const key = await storeBuffer(storage, 'messages', img.feed, 'webp');
      const thumb = await storeBuffer(storage, 'messages', img.thumbnail, 'webp');
      return {
        file_type: 'photo',
        file_url: url(key)!,
        thumbnail_url: url(thumb)!,
        width: img.width,
        height: img.height,
        duration: null,
        file_size: img.feed.length,
      };
    }
    if (payload.kind === 'gif') {
      // The animation is kept as uploaded (streamed); the still thumbnail comes from the shared image processing.
      const meta = await sharp(payload.path, SHARP_INPUT).metadata();
      const img = await processImage(payload.path);
      const key = await storeFile(storage, 'messages', payload.path, 'gif');
      const thumb = await storeBuffer(storage, 'messages', img.thumbnail, 'webp');
      const { size } = await fs.stat(payload.path);
      return {
        file_type: 'gif',
        file_url: url(key)!,
        thumbnail_url: url(thumb)!,
        width: meta.width ?? img.width,
        height: meta.pageHeight ?? meta.height ?? img.height,
        duration: null,
        file_size: size,
      };
    }
    const work = path.join(payload.dir, 'work');
    await fs.mkdir(work, { recursive: true });
    if (payload.kind === 'voice') {
      const voice = await processVoice(ffmpeg(), payload.path, work, { signal });
      const key = await storeFile(storage, 'messages', voice.file, 'm4a');
      const { size } = await fs.stat(voice.file);
      return {
        file_type: 'voice',
        file_url: url(key)!,
        thumbnail_url: null,
        width: null,
        height: null,
        duration: voice.duration,
        file_size: size,
        waveform: JSON.stringify(voice.waveform),
      };
    }
    const video = await processVideo(ffmpeg(), payload.path, work, { threads: 1, signal });
    const key = await storeFile(storage, 'messages', video.file, 'mp4');
    const poster = await storeBuffer(storage, 'messages', video.poster, 'webp');
    const { size } = await fs.stat(video.file);
    return {
      file_type: 'video',
      file_url: url(key)!,
      thumbnail_url: url(poster)!,
      width: video.width,
      height: video.height,
      duration: video.duration,
      file_size: size,
    };
  }

  async function setStatus(fileId: number, status: AttachmentStatus, fields: Partial<FileRow> = {}) {
    const row = await deps.db
      .updateTable('message_files')
      .set({ ...fields, status })
      .where('id', '=', fileId)
      .where('status', '=', 'processing')
      .returning('message_id')
      .executeTakeFirst();
    if (row?.message_id) await deps.onProcessed?.(row.message_id);
  }

  const handler: JobHandler<AttachmentJobPayload> = {
    async run({ payload, signal }) {
      const row = await deps.db
        .selectFrom('message_files')
        .select(['id', 'status'])
        .where('id', '=', payload.fileId)
        .executeTakeFirst();
      if (row?.status === 'processing') {
        let done: Awaited<ReturnType<typeof processMedia>>;
        try {
          done = await processMedia(payload, signal);
        } catch (error) {
          if (isPermanent(error) || signal.aborted) throw error;
          const message = error instanceof Error ? error.message : String(error);
          if (/exited with|not a video|Input|no audio|unsupported image format|corrupt/i.test(message))
            throw new PermanentJobError(message, ErrorText.mediaUnreadable);
          throw error;
        }
        await setStatus(payload.fileId, 'ready', done);
        // Removed or swept meanwhile: what this run stored goes unless something else names it.
        const still = await deps.db
          .selectFrom('message_files')
          .select('id')
          .where('id', '=', payload.fileId)
          .executeTakeFirst();
        if (!still)
          await deps.releaseStored?.(
            [done.file_url, done.thumbnail_url].filter((u): u is string => u !== null),
          );
      }
      await fs.rm(payload.dir, { recursive: true, force: true });
    },
    async onGiveUp({ payload }) {
      await setStatus(payload.fileId, 'failed').catch(() => undefined);
      await fs.rm(payload.dir, { recursive: true, force: true });
    },
  };

  return {
    handler,

    async upload(userId: number, req: FastifyRequest): Promise<MessageAttachment[]> {
      // Refused before a byte is read; the files are counted once we know how many there are.
      await deps.limits.check('upload.attachment', { user: userId });
      return deps.inFlight
        ? deps.inFlight.run(userId, () => receiveAll(userId, req))
        : receiveAll(userId, req);
    },
  };

  async function receiveAll(userId: number, req: FastifyRequest): Promise<MessageAttachment[]> {
    {
      const dir = path.join(deps.tmpRoot ?? os.tmpdir(), `attach-${randomUUID()}`);
      await fs.mkdir(dir, { recursive: true });
      let handedOver = false;
      try {
        const files = await receive(req, dir);
        await deps.limits.consume('upload.attachment', { user: userId }, files.length);
        for (const file of files) await confirm(file);
        const jobs = deps.jobs;
        const rows = await deps.db.transaction().execute(async (trx) => {
          const out: FileRow[] = [];
          const payloads: { kind: string; payload: AttachmentJobPayload }[] = [];
          for (const file of files) {
            const { kind } = file;
            if (kind.kind === 'document' || !jobs) {
              const stored =
                kind.kind === 'document'
                  ? await storeFile(storage, 'messages', file.path, kind.extension)
                  : null;
              const ready =
                stored !== null
                  ? {
                      file_type: 'document' as const,
                      file_url: url(stored)!,
                      thumbnail_url: null,
                      width: null,
                      height: null,
                      duration: null,
                      file_size: file.size,
                    }
                  : await processMedia({
                      fileId: 0,
                      dir: path.dirname(file.path),
                      path: file.path,
                      kind: kind.kind as AttachmentJobPayload['kind'],
                    });
              const [row] = await trx
                .insertInto('message_files')
                .values({ ...ready, uploader_id: userId, file_name: file.name, status: 'ready' })
                .returningAll()
                .execute();
              out.push(row as FileRow);
              continue;
            }
            const [row] = await trx
              .insertInto('message_files')
              .values({
                uploader_id: userId,
                file_type: kind.kind === 'image' ? 'photo' : kind.kind,
                file_url: '',
                thumbnail_url: null,
                width: null,
                height: null,
                duration: null,
                file_size: file.size,
                file_name: file.name,
                status: 'processing',
              })
              .returningAll()
              .execute();
            out.push(row as FileRow);
            // Each file keeps its own directory, so each job removes only its own.
            const payload: AttachmentJobPayload = {
              fileId: (row as FileRow).id,
              dir: path.join(dir, `job-${(row as FileRow).id}`),
              path: '',
              kind: kind.kind,
            };
            await fs.rename(path.dirname(file.path), payload.dir);
            payload.path = path.join(payload.dir, 'upload');
            payloads.push({ kind: kind.kind === 'video' ? VIDEO_ATTACHMENT_JOB : ATTACHMENT_JOB, payload });
          }
          for (const p of payloads) await jobs?.enqueue(p.kind, p.payload, trx);
          return out;
        });
        handedOver = true;
        jobs?.notify();
        // The job directories now belong to the jobs; the rest of the upload directory goes.
        for (const entry of await fs.readdir(dir)) {
          if (!entry.startsWith('job-')) await fs.rm(path.join(dir, entry), { recursive: true, force: true });
        }
        return rows.map(toAttachment);
      } finally {
        if (!handedOver) await fs.rm(dir, { recursive: true, force: true });
      }
    }
  }
}

export type AttachmentsService = ReturnType<typeof attachmentsService>;
