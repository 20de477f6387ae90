import { ErrorCode, ErrorText, normalizeInput } from '@kadr/contract';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { textRefusal } from '../lib/text-refusal.ts';

const ajvOptions = { strict: false, removeAdditional: false, useDefaults: true, allErrors: false } as const;

/**
 * Request validation from the route objects' schemas. JSON bodies are taken as sent — never coerced
 * (`false` must not become the text "false", `[1]` must not become 1); path parameters and query
 * strings arrive as text, so they are coerced to their schema's types. A multipart body is read as a
 * stream by its handler; its schema only documents the fields.
 */
export function registerValidation(app: App) {
  const coercing = new Ajv({ ...ajvOptions, coerceTypes: 'array' });
  const exact = new Ajv({ ...ajvOptions, coerceTypes: false });
  addFormats(coercing);
  addFormats(exact);
  app.setValidatorCompiler(({ schema, httpPart, contentType }) => {
    if (contentType === 'multipart/form-data') return () => true;
    return (httpPart === 'body' ? exact : coercing).compile(schema);
  });
}

/**
 * Errors Fastify raises before routing (a path parameter past `maxParamLength`, a malformed URL)
 * answer `{ error, code }` like every other 4xx.
 */
export function frameworkErrors(_error: FastifyError, _req: FastifyRequest, reply: FastifyReply) {
  reply.code(400).send({ error: ErrorText.malformedBody, code: ErrorCode.validationFailed });
}

/**
 * Every JSON body passes the contract's text normaliser before its schema sees it (so lengths count what
 * others will see): control characters refused, names cleaned of invisible and direction characters.
 */
export function registerTextNormaliser(app: App) {
  app.addHook('preValidation', async (req) => {
    if (req.body === null || typeof req.body !== 'object') return;
    const { problems } = normalizeInput(req.body);
    if (problems.length > 0) throw textRefusal(problems);
  });
}
