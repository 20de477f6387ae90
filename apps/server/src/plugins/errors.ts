import { ErrorCode, ErrorText } from '@kadr/contract';
import type { FastifyError } from 'fastify';
import type { App } from '../app-types.ts';
import { AppError } from '../lib/errors.ts';

const BAD_BODY_CODES = new Set([
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_PROTO_VIOLATION',
]);

function fieldsOf(error: FastifyError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const v of error.validation ?? []) {
    const missing = (v.params as { missingProperty?: string }).missingProperty;
    const field = missing ?? v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (field) fields[field] = ErrorText.validationFailed;
  }
  return fields;
}

/** One place that turns every failure into `{ error, code }` with the right status. */
export function registerErrorHandling(app: App) {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof AppError) {
      const retryAfterMs = (error as AppError & { retryAfterMs?: number }).retryAfterMs;
      if (retryAfterMs !== undefined) reply.header('retry-after', Math.ceil(retryAfterMs / 1000));
      return reply.code(error.status).send({
        error: error.message,
        code: error.code,
        ...(error.fields ? { fields: error.fields } : {}),
        // What the answer carries besides (a login challenge); the route's schema for the status says what.
        ...((error as AppError & { body?: object }).body ?? {}),
      });
    }
    if (error.validation) {
      return reply.code(400).send({
        error: ErrorText.validationFailed,
        code: ErrorCode.validationFailed,
        fields: fieldsOf(error),
      });
    }
    if (error.code && BAD_BODY_CODES.has(error.code)) {
      const tooLarge = ['FST_ERR_CTP_BODY_TOO_LARGE', 'FST_REQ_FILE_TOO_LARGE'].includes(error.code);
      return reply.code(400).send({
        error: tooLarge ? ErrorText.bodyTooLarge : ErrorText.malformedBody,
        code: tooLarge ? ErrorCode.bodyTooLarge : ErrorCode.validationFailed,
      });
    }
    // PostgreSQL data exceptions (class 22: bad encoding, NUL, out-of-range values) come from input.
    const pgCode = (error as { code?: unknown }).code;
    if (typeof pgCode === 'string' && /^22[0-9A-Z]{3}$/.test(pgCode)) {
      return reply.code(400).send({ error: ErrorText.malformedBody, code: ErrorCode.validationFailed });
    }
    if (error.statusCode === 429) {
      return reply.code(429).send({ error: ErrorText.rateLimited, code: ErrorCode.rateLimited });
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(400).send({ error: ErrorText.malformedBody, code: ErrorCode.validationFailed });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: ErrorText.internal, code: ErrorCode.internal });
  });
}

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), but a `\u0000` anywhere is refused
 * too: PostgreSQL text cannot hold NUL, so it would otherwise fail deep inside a write.
 */
export function registerJsonParser(app: App) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.includes('\\u0000')) {
      done(new AppError(400, ErrorCode.validationFailed, ErrorText.malformedBody), undefined);
      return;
    }
    parseJson(req, text, done);
  });
}
