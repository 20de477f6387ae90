import { ErrorCode, ErrorText, FieldText } from '@kadr/contract';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../../../lib/errors.ts';

export const tooLarge = () => new AppError(413, ErrorCode.payloadTooLarge, ErrorText.uploadTooLarge);
export const malformed = () => new AppError(400, ErrorCode.validationFailed, ErrorText.malformedBody);

/** Errors of our own side while writing what arrived: these stay 5xx, everything else in a body is the client's. */
const SERVER_FAULTS = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EIO', 'EMFILE', 'ENFILE', 'EROFS']);

/**
 * Turns whatever reading a multipart body threw into the answer the client gets: our typed errors pass, size
 * limits are 413, the parser's complaints (a cut body, no boundary, a part without its blank line, garbage) are
 * a 400 `{ error, code }`. Only local disk failures remain server errors.
 */
export function multipartError(error: unknown, onFilesLimit: () => AppError = malformed): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT') return onFilesLimit();
  if (typeof code === 'string' && SERVER_FAULTS.has(code)) return error;
  return malformed();
}

/**
 * One image from a multipart body, read whole (the size limit is enforced while streaming), after the body has
 * been parsed to its closing boundary: a cut or malformed body is refused before anything is stored.
 */
export async function receiveOneImage(req: FastifyRequest, field: string, maxBytes: number): Promise<Buffer> {
  if (!req.isMultipart()) throw errors.unsupportedMedia(FieldText.imageRequired);
  let data: Buffer | null = null;
  try {
    const parts = req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024 } });
    for await (const part of parts) {
      if (part.type === 'field') continue;
      if (part.fieldname !== field || data) {
        part.file.resume();
        continue;
      }
      const buf = await part.toBuffer();
      if (part.file.truncated) throw tooLarge();
      data = buf;
    }
  } catch (error) {
    throw multipartError(error, () => errors.unsupportedMedia(FieldText.imageRequired));
  }
  if (!data || data.length === 0) throw errors.unsupportedMedia(FieldText.imageRequired);
  return data;
}
