import { randomBytes } from 'node:crypto';
import { API_PREFIX, ErrorCode, ErrorText } from '@kadr/contract';
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { App, AppContext } from '../../app-types.ts';
import { AppError } from '../../lib/errors.ts';
import {
  type FileVariant,
  PRIVATE_FILES_PATH,
  setAttachmentSigner,
  urlSigner,
} from '../../storage/signed-urls.ts';

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  wav: 'audio/wav',
  txt: 'text/plain; charset=utf-8',
};

const notFound = () => new AppError(404, ErrorCode.notFound, ErrorText.attachmentNotFound);

/** The URL-signing secret, the same on every node: the first node to start stores one, the others read it. */
export async function attachmentSecret(ctx: AppContext): Promise<string> {
  const db = ctx.db.kysely;
  const fresh = randomBytes(32).toString('base64url');
  await sql`insert into app_secrets (name, value) values ('attachment-urls', ${fresh}) on conflict (name) do nothing`.execute(
    db,
  );
  const row = await sql<{
    value: string;
  }>`select value from app_secrets where name = 'attachment-urls'`.execute(db);
  return row.rows[0]!.value;
}

function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start > end || start >= size ? 'invalid' : { start, end };
}

const Params = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const Query = Type.Object({ e: Type.Integer({ minimum: 0 }), s: Type.String({ maxLength: 64 }) });

/**
 * Chat attachments are served only through short-lived signed URLs handed to chat members, and each fetch also
 * checks the database, so a message deleted for everyone is unreachable at once (docs/adr/0007).
 */
export async function registerPrivateFiles(api: App, ctx: AppContext) {
  const signer = urlSigner(await attachmentSecret(ctx), API_PREFIX);
  setAttachmentSigner(signer);
  const { storage } = ctx;
  const db = ctx.db.kysely;

  async function serve(
    variant: FileVariant,
    id: number,
    query: { e: number; s: string },
    rangeHeader: string | undefined,
    reply: FastifyReply,
  ) {
    if (!signer.verify(id, variant, query.e, query.s))
      throw new AppError(403, ErrorCode.forbidden, ErrorText.attachmentNotFound);
    const row = await db
      .selectFrom('message_files as f')
      .leftJoin('messages as m', 'm.id', 'f.message_id')
      .select(['f.file_url', 'f.thumbnail_url', 'f.file_name', 'f.file_type', 'f.message_id', 'm.deleted_at'])
      .where('f.id', '=', id)
      .executeTakeFirst();
    if (!row || (row.message_id !== null && row.deleted_at !== null)) throw notFound();
    const url = variant === 'thumb' ? row.thumbnail_url : row.file_url;
    const key = url ? storage.keyFromUrl(url) : null;
    const stat = key ? await storage.stat(key) : null;
    if (!key || !stat) throw notFound();
    const ext = key.slice(key.lastIndexOf('.') + 1);
    const range = parseRange(rangeHeader, stat.size);
    if (range === 'invalid') {
      return reply.code(416).header('content-range', `bytes */${stat.size}`).send({
        error: ErrorText.malformedBody,
        code: ErrorCode.validationFailed,
      });
    }
    const body = await storage.get(key, range ?? undefined);
    if (!body) throw notFound();
    const maxAge = Math.max(0, Math.floor(query.e - Date.now() / 1000));
    reply
      .header('cache-control', `private, max-age=${Math.min(maxAge, 3600)}`)
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      .type(CONTENT_TYPES[ext] ?? 'application/octet-stream');
    if (row.file_type === 'document' && variant === 'file') {
      const name = encodeURIComponent(row.file_name ?? `file.${ext}`);
      reply.header('content-disposition', `attachment; filename*=UTF-8''${name}`);
    }
    if (range) {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
        .header('content-length', range.end - range.start + 1);
    } else reply.header('content-length', stat.size);
    return reply.send(body);
  }

  const schema = { tags: ['messenger'], params: Params, querystring: Query, hide: true };
  api.get(`${PRIVATE_FILES_PATH}/:id`, { schema }, (req, reply) =>
    serve('file', req.params.id, req.query, req.headers.range, reply),
  );
  api.get(`${PRIVATE_FILES_PATH}/:id/thumb`, { schema }, (req, reply) =>
    serve('thumb', req.params.id, req.query, req.headers.range, reply),
  );
}
