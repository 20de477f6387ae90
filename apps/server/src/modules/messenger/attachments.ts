import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, ErrorText, Limits, type MessageAttachment } from '@kadr/contract';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { AppError, errors } from '../../lib/errors.ts';
import type { RateLimits } from '../../lib/limits.ts';
import { contentKey, type Storage } from '../../storage/storage.ts';
import { type FfmpegBinaries, findFfmpeg } from '../media/processing/ffmpeg.ts';
import { processImage } from '../media/processing/image.ts';
import { processVideo } from '../media/processing/video.ts';
import { sniffFile } from '../media/upload/sniff.ts';
import { type AttachmentKind, attachmentKind } from './attachment-kind.ts';
import { toAttachment } from './mappers.ts';
import type { MessengerRepository, NewFile } from './repository.ts';

const tooLarge = () => new AppError(413, ErrorCode.payloadTooLarge, ErrorText.uploadTooLarge);
const wrongType = () => errors.unsupportedMedia(ErrorText.attachmentWrongType);

interface Received {
  path: string;
  name: string | null;
  kind: AttachmentKind;
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
  return clean === '' ? null : clean;
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

/**
 * Chat attachments: received to a temporary directory, checked by content, processed with the same
 * functions as posts (webp variants, H.264 MP4 + poster), and only then written to storage.
 * Anything rejected leaves nothing behind.
 */
export function attachmentsService(deps: {
  repo: MessengerRepository;
  storage: Storage;
  maxBytes: number;
  limits: RateLimits;
  tmpRoot?: string;
  ffmpeg?: () => FfmpegBinaries;
}) {
  const { repo, storage } = deps;
  let bins: FfmpegBinaries | null = null;
  const ffmpeg = () => {
    bins ??= (deps.ffmpeg ?? findFfmpeg)();
    return bins;
  };

  async function receive(req: FastifyRequest, dir: string): Promise<Received[]> {
    if (!req.isMultipart()) throw wrongType();
    const out: Received[] = [];
    try {
      const parts = req.parts({
        limits: { fileSize: deps.maxBytes, files: Limits.messageFilesMax, fields: 4, fieldSize: 1024 },
      });
      for await (const part of parts) {
        if (part.type === 'field') continue;
        const file = path.join(dir, String(out.length));
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) throw tooLarge();
        const bytes = await head(file);
        const kind = attachmentKind(bytes);
        if (!kind) throw wrongType();
        out.push({ path: file, name: cleanFileName(part.filename), kind });
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT') throw errors.validation({ files: ErrorText.validationFailed });
      throw error;
    }
    if (out.length === 0)
      throw errors.validation({ files: ErrorText.uploadNoFiles }, ErrorText.uploadNoFiles);
    return out;
  }

  /** Media kinds must decode; `sniffFile` is the check posts use (sharp for images, ffprobe for video). */
  async function confirm(file: Received) {
    if (file.kind.kind === 'document') return;
    const sniffed = await sniffFile(ffmpeg(), file.path);
    const expected = file.kind.kind === 'video' ? 'video' : 'image';
    if (sniffed !== expected) throw wrongType();
  }

  type Prepared = { objects: { key: string; data: Buffer }[]; row: Omit<NewFile, 'uploader_id'> };

  async function prepare(file: Received, workDir: string): Promise<Prepared> {
    const { kind } = file;
    const name = file.name;
    if (kind.kind === 'image') {
      const img = await processImage(file.path).catch(() => {
        throw wrongType();
      });
      const key = contentKey('messages', img.feed, 'webp');
      const thumb = contentKey('messages', img.thumbnail, 'webp');
      return {
        objects: [
          { key, data: img.feed },
          { key: thumb, data: img.thumbnail },
        ],
        row: fileRow('photo', key, thumb, img.width, img.height, null, img.feed.length, name),
      };
    }
    if (kind.kind === 'gif') {
      // The animation is kept as uploaded; the still thumbnail comes from the shared image processing.
      const data = await fs.readFile(file.path);
      const meta = await sharp(data).metadata();
      const img = await processImage(data);
      const key = contentKey('messages', data, 'gif');
      const thumb = contentKey('messages', img.thumbnail, 'webp');
      return {
        objects: [
          { key, data },
          { key: thumb, data: img.thumbnail },
        ],
        row: fileRow(
          'gif',
          key,
          thumb,
          meta.width ?? img.width,
          meta.pageHeight ?? meta.height ?? img.height,
          null,
          data.length,
          name,
        ),
      };
    }
    if (kind.kind === 'video') {
      const video = await processVideo(ffmpeg(), file.path, workDir, { threads: 1 }).catch(() => {
        throw wrongType();
      });
      const data = await fs.readFile(video.file);
      const key = contentKey('messages', data, 'mp4');
      const poster = contentKey('messages', video.poster, 'webp');
      return {
        objects: [
          { key, data },
          { key: poster, data: video.poster },
        ],
        row: fileRow('video', key, poster, video.width, video.height, video.duration, data.length, name),
      };
    }
    const data = await fs.readFile(file.path);
    const key = contentKey('messages', data, kind.extension);
    return {
      objects: [{ key, data }],
      row: fileRow('document', key, null, null, null, null, data.length, name),
    };
  }

  function fileRow(
    file_type: NewFile['file_type'],
    key: string,
    thumbKey: string | null,
    width: number | null,
    height: number | null,
    duration: number | null,
    file_size: number,
    file_name: string | null,
  ): Omit<NewFile, 'uploader_id'> {
    return {
      file_type,
      file_url: storage.publicUrl(key),
      thumbnail_url: thumbKey ? storage.publicUrl(thumbKey) : null,
      width,
      height,
      duration,
      file_size,
      file_name,
    };
  }

  return {
    async upload(userId: number, req: FastifyRequest): Promise<MessageAttachment[]> {
      // Refused before a byte is read; the files are counted once we know how many there are.
      await deps.limits.check('upload.attachment', { user: userId });
      // Refused before a byte is read; the files are counted once we know how many there are.
      await deps.limits.check('upload.attachment', { user: userId });
      const dir = path.join(deps.tmpRoot ?? os.tmpdir(), `kadr-attach-${randomUUID()}`);
      await fs.mkdir(dir, { recursive: true });
      try {
        const files = await receive(req, dir);
        await deps.limits.consume('upload.attachment', { user: userId }, files.length);
        await deps.limits.consume('upload.attachment', { user: userId }, files.length);
        for (const file of files) await confirm(file);
        const prepared: Prepared[] = [];
        for (const [i, file] of files.entries()) {
          const workDir = path.join(dir, `work-${i}`);
          await fs.mkdir(workDir);
          prepared.push(await prepare(file, workDir));
        }
        for (const p of prepared) for (const o of p.objects) await storage.put(o.key, o.data);
        const rows = await repo.insertFiles(prepared.map((p) => ({ ...p.row, uploader_id: userId })));
        return rows.map(toAttachment);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export type AttachmentsService = ReturnType<typeof attachmentsService>;
