import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorText, normalizeInput, type TextProblem, UploadFields } from '@kadr/contract';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../../lib/errors.ts';
import { textRefusal } from '../../../lib/text-refusal.ts';
import { multipartError, tooLarge } from './multipart.ts';

export interface ReceivedFile {
  field: 'files' | 'thumbnail';
  path: string;
  bytes: number;
}

export interface ReceivedUpload {
  dir: string;
  files: ReceivedFile[];
  thumbnail: ReceivedFile | null;
  caption: string;
  mediaType: string | null;
  /** Values of the extra text fields the caller asked for (`ReceiveOptions.fields`). */
  fields: Record<string, string>;
}

/** For other upload routes on the same pipeline (stories): another file field name, extra text fields. */
export interface ReceiveOptions {
  /** Read as `files` (default `files`). */
  fileField?: string;
  fields?: readonly string[];
}

export interface UploadLimits {
  maxVideoBytes: number;
  maxImageBytes: number;
  maxCarouselImages: number;
}

export { tooLarge };

/**
 * Streams a multipart upload into its own directory under `tmpRoot`, file by file, so a video is never held in
 * memory. Only sizes are checked here; content rules come after (validate.ts). On any failure the directory is removed.
 */
export async function receiveUpload(
  req: FastifyRequest,
  tmpRoot: string,
  limits: UploadLimits,
  options: ReceiveOptions = {},
): Promise<ReceivedUpload> {
  if (!req.isMultipart()) throw errors.unsupportedMedia(ErrorText.uploadNoFiles);
  // A declared body larger than any accepted upload is refused before a byte is written.
  const total =
    Math.max(limits.maxVideoBytes, limits.maxImageBytes * limits.maxCarouselImages) +
    2 * limits.maxImageBytes;
  if (Number(req.headers['content-length'] ?? 0) > total) throw tooLarge();
  const dir = path.join(tmpRoot, `upload-${randomUUID()}`);
  await fs.mkdir(dir, { recursive: true });
  const upload: ReceivedUpload = {
    dir,
    files: [],
    thumbnail: null,
    caption: '',
    mediaType: null,
    fields: {},
  };
  const fileField = options.fileField ?? 'files';
  try {
    const parts = req.parts({
      limits: {
        fileSize: Math.max(limits.maxVideoBytes, limits.maxImageBytes),
        files: limits.maxCarouselImages + 2,
        fields: 8,
        fieldSize: 16 * 1024,
      },
    });
    let n = 0;
    let written = 0;
    for await (const part of parts) {
      if (part.type === 'field') {
        const raw = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        // Text fields of a multipart body pass the same normaliser as every JSON body.
        const { value, problems } = normalizeInput(raw, part.fieldname) as {
          value: string;
          problems: TextProblem[];
        };
        if (problems.length > 0) throw textRefusal(problems);
        if (part.fieldname === UploadFields.caption) upload.caption = value;
        else if (part.fieldname === UploadFields.mediaType) upload.mediaType = value;
        else if (options.fields?.includes(part.fieldname)) upload.fields[part.fieldname] = value;
        continue;
      }
      const field =
        part.fieldname === UploadFields.thumbnail
          ? 'thumbnail'
          : part.fieldname === fileField
            ? 'files'
            : part.fieldname;
      if (field !== 'files' && field !== 'thumbnail') {
        part.file.resume();
        continue;
      }
      const file = path.join(dir, String(n++));
      await pipeline(part.file, createWriteStream(file));
      if (part.file.truncated) throw tooLarge();
      const { size } = await fs.stat(file);
      written += size;
      if (written > total) throw tooLarge();
      if (size === 0) {
        await fs.rm(file, { force: true });
        continue;
      }
      const received: ReceivedFile = { field, path: file, bytes: size };
      if (field === 'thumbnail') upload.thumbnail = received;
      else upload.files.push(received);
    }
    return upload;
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw multipartError(error, () => errors.unsupportedMedia(ErrorText.uploadTooManyImages));
  }
}
